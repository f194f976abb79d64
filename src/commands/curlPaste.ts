/**
 * A cURL command pasted into Send Request's first step, read by the cURL importer into what the
 * following steps ask: the method, the path and query (a platform host's address becomes its path),
 * the JSON body and the extra headers (those steps open, filled in, to be confirmed). The headers the
 * client sets itself are left out; credentials were dropped by the importer, which says so. No `vscode` here.
 */
import { isCredentialHeader } from '../api/requestHeaders';
import * as l10n from '../common/l10n';
import { convertCurlText } from '../engine/importers/curl';
import { ImportError } from '../engine/importers/types';
import { platformPath } from '../engine/prepare';
import { validateJsonBody } from './requestInput';

export interface PastedRequest {
  method: string;
  path: string;
  /** `a=1&b=2`, or undefined. */
  query?: string;
  body?: string;
  /** `Name: value; Name: value`, as the headers step takes them; undefined when there are none. */
  headers?: string;
  /** What the import dropped (credentials, -k...), to be said. */
  notes: string[];
}

const CLIENT_SET = new Set(['accept', 'content-type']);

/** The request of a pasted command, or a sentence saying why Send Request cannot send it. `clusters`: the tenants' cluster addresses known. */
export function readPastedCurl(text: string, baseUrl: string | undefined, clusters: readonly string[] = []): PastedRequest | { error: string } {
  let request;
  let notes: string[];
  try {
    const [first] = convertCurlText(text);
    request = first.request;
    notes = first.notes.map((note) => note.message);
  } catch (error) {
    if (error instanceof ImportError) return { error: error.message };
    throw error;
  }
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { error: l10n.t('The cURL command\'s URL "{0}" cannot be read.', request.url.slice(0, 200)) };
  }
  const path = [undefined, ...clusters].map((clusterAddress) => platformPath(url, { baseUrl: baseUrl ?? '', clusterAddress })?.path).find((found) => found !== undefined);
  if (path === undefined) return { error: l10n.t('The cURL command calls {0}, not the platform\'s base URL: Paste cURL as Request puts it in a request file.', url.host) };
  if (request.body !== undefined && (request.body.startsWith('< ') || validateJsonBody(request.body))) {
    return { error: l10n.t('Send Request sends JSON bodies only: Paste cURL as Request puts this command in a request file.') };
  }
  const [pathOnly, query] = path.split(/\?(.*)/s);
  const headers = request.headers.filter(([name]) => !CLIENT_SET.has(name.toLowerCase()) && !isCredentialHeader(name)).map(([name, value]) => `${name}: ${value}`);
  return {
    method: request.method,
    path: pathOnly,
    ...(query ? { query } : {}),
    ...(request.body !== undefined ? { body: request.body } : {}),
    ...(headers.length > 0 ? { headers: headers.join('; ') } : {}),
    notes,
  };
}
