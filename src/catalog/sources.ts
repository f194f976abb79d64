/**
 * Reading a catalogue entry's text: a workspace file (its relative `$ref`s beside it), or an address
 * fetched from the host the entry names and no other (a redirect elsewhere is refused), without the
 * platform's credentials, within the size limit. Plain Node: the fetch and the file reader are given.
 */
import * as path from 'node:path';
import * as l10n from '../common/l10n';
import { addressOf } from './entries';
import { MAX_DESCRIPTION_BYTES, megabytes } from './limits';
import { CatalogueError, type CatalogueEntry } from './types';

export interface DescriptionSource {
  /** Its UTF-8 bytes (decoded by the reader, on its thread), or its text. */
  text: string | Uint8Array;
  /** The file's absolute path (its relative references are read beside it); undefined for an address. */
  file?: string;
  /** How messages name it. */
  name: string;
  readFile?(absolutePath: string): Promise<string>;
}

export interface SourceDeps {
  /** The workspace folder a relative file entry is read from; undefined: only absolute paths. */
  folder?: string;
  /** A file's bytes. */
  readFile(absolutePath: string): Promise<Uint8Array>;
  /** Size of a file, to refuse a huge one before reading it. */
  fileSize(absolutePath: string): Promise<number>;
  fetch: typeof fetch;
  timeoutMs?: number;
}

async function readAddress(url: URL, deps: SourceDeps): Promise<Uint8Array> {
  let answer: Response;
  try {
    // No credentials: a catalogue's host is the user's word, not a validated platform host.
    answer = await deps.fetch(url, { redirect: 'manual', headers: { Accept: 'application/json, application/yaml, text/yaml, */*' }, signal: AbortSignal.timeout(deps.timeoutMs ?? 30_000) });
  } catch (error) {
    throw new CatalogueError(l10n.t('{0} could not be fetched: {1}', url.href, error instanceof Error ? error.message : String(error)), { file: url.href });
  }
  if (answer.status >= 300 && answer.status < 400) {
    throw new CatalogueError(l10n.t('{0} answered with a redirect ({1}): only the address named in the setting is read.', url.href, answer.status), { file: url.href });
  }
  if (!answer.ok) throw new CatalogueError(l10n.t('{0} answered {1} {2}.', url.href, answer.status, answer.statusText), { file: url.href });
  const declared = Number(answer.headers.get('content-length') ?? 0);
  if (declared > MAX_DESCRIPTION_BYTES) throw tooLarge(url.href, declared);
  const body = Buffer.from(await answer.arrayBuffer());
  if (body.length > MAX_DESCRIPTION_BYTES) throw tooLarge(url.href, body.length);
  return body;
}

function tooLarge(name: string, bytes: number): CatalogueError {
  return new CatalogueError(l10n.t('{0} is {1}, over the limit of {2} for a description.', name, megabytes(bytes), megabytes(MAX_DESCRIPTION_BYTES)), { file: name });
}

export async function readSource(entry: Pick<CatalogueEntry, 'source'>, deps: SourceDeps): Promise<DescriptionSource> {
  const url = addressOf(entry.source);
  if (url) return { text: await readAddress(url, deps), name: url.href };
  if (!path.isAbsolute(entry.source) && !deps.folder) {
    throw new CatalogueError(l10n.t('{0} is a relative path, but no workspace folder is open.', entry.source), { file: entry.source });
  }
  const file = path.resolve(deps.folder ?? '', entry.source);
  let size: number;
  try {
    size = await deps.fileSize(file);
  } catch (error) {
    throw new CatalogueError(l10n.t('Cannot read {0}: {1}', file, (error as NodeJS.ErrnoException).code ?? String(error)), { file });
  }
  if (size > MAX_DESCRIPTION_BYTES) throw tooLarge(file, size);
  const readText = async (absolutePath: string) => {
    const bytes = await deps.readFile(absolutePath);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  };
  return { text: await deps.readFile(file), file, name: file, readFile: readText };
}
