/**
 * One Postman request (v2.0 or v2.1) as a request of a request file: its URL with the enabled query
 * parameters and path variables filled, its enabled headers, its body (raw, urlencoded, text
 * form-data, GraphQL, a file), Postman's dynamic variables as the request file's system variables.
 * No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import { headerValue, importedHeaders, type DraftRequest } from './requestText';
import type { ImportNote } from './types';

interface KeyValue {
  key?: string | null;
  value?: unknown;
  disabled?: boolean;
  type?: string;
  src?: unknown;
}

interface PostmanUrl {
  raw?: string;
  protocol?: string;
  host?: string[] | string;
  port?: string;
  path?: string[] | string;
  query?: KeyValue[];
  variable?: KeyValue[];
}

interface PostmanBody {
  mode?: string;
  raw?: string;
  urlencoded?: KeyValue[];
  formdata?: KeyValue[];
  file?: { src?: unknown };
  graphql?: { query?: string; variables?: string };
  options?: { raw?: { language?: string } };
  disabled?: boolean;
}

export interface PostmanRequest {
  method?: string;
  url?: PostmanUrl | string;
  header?: KeyValue[] | string;
  body?: PostmanBody;
  auth?: { type?: string };
  description?: unknown;
}

const FORM_BOUNDARY = 'TenantApiFormBoundary';

const RAW_TYPES: Record<string, string> = { json: 'application/json', xml: 'application/xml', html: 'text/html', javascript: 'application/javascript', text: 'text/plain' };

/** Postman's dynamic variables the request file has under another name. */
const DYNAMIC: Record<string, string> = { $guid: '$guid', $randomUUID: '$guid', $timestamp: '$timestamp', $isoTimestamp: '$datetime iso8601', $randomInt: '$randomInt 0 1000' };

/** `{{$isoTimestamp}}` → `{{$datetime iso8601}}`; a dynamic variable with no counterpart is named. */
function withSystemVariables(text: string, where: string, notes: ImportNote[]): string {
  return text.replace(/\{\{\s*(\$[A-Za-z]+)\s*\}\}/g, (whole, name: string) => {
    const mapped = DYNAMIC[name];
    if (mapped) return `{{${mapped}}}`;
    notes.push({ where, message: l10n.t('Postman\'s dynamic variable {0} has no counterpart in request files: define it as a variable.', name) });
    return whole;
  });
}

const enabled = (entries: KeyValue[] | undefined) => (entries ?? []).filter((entry) => entry.disabled !== true && entry.key !== undefined && entry.key !== null);
const text = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The URL as written in Postman, its query rebuilt from the enabled parameters, `:name` path variables filled. */
function urlOf(url: PostmanUrl | string | undefined): string {
  if (url === undefined) return '';
  if (typeof url === 'string') return url;
  let base = url.raw?.split('?')[0] ?? '';
  if (!base && url.host) {
    const host = Array.isArray(url.host) ? url.host.join('.') : url.host;
    const path = Array.isArray(url.path) ? url.path.join('/') : (url.path ?? '');
    base = `${url.protocol ? `${url.protocol}://` : ''}${host}${url.port ? `:${url.port}` : ''}${path ? `/${path.replace(/^\//, '')}` : ''}`;
  }
  for (const variable of url.variable ?? []) {
    if (!variable.key) continue;
    const value = text(variable.value);
    base = base.replace(new RegExp(`(/):${variable.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|$)`, 'g'), `$1${value !== '' ? value : `{{${variable.key}}}`}`);
  }
  if (!url.query) {
    const rawQuery = url.raw?.indexOf('?') ?? -1;
    return rawQuery >= 0 ? `${base}${url.raw!.slice(rawQuery)}` : base;
  }
  const query = enabled(url.query).map((entry) => (entry.value === null || entry.value === undefined ? entry.key! : `${entry.key}=${text(entry.value)}`));
  return query.length > 0 ? `${base}?${query.join('&')}` : base;
}

function headersOf(header: PostmanRequest['header']): Array<[string, string]> {
  if (typeof header === 'string') {
    return header.split(/\r?\n/).filter((line) => line.includes(':')).map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]);
  }
  return enabled(header).map((entry) => [entry.key!, text(entry.value)]);
}

/** `a=1&b=x%20y`, each key and value encoded, `{{references}}` left as written. */
function urlencodedBody(entries: KeyValue[]): string {
  const encode = (value: string) => value.split(/(\{\{[^{}]*\}\})/).map((part, index) => (index % 2 === 1 ? part : encodeURIComponent(part))).join('');
  return enabled(entries).map((entry) => `${encode(entry.key!)}=${encode(text(entry.value))}`).join('&');
}

function formBody(entries: KeyValue[], where: string, notes: ImportNote[]): string {
  const parts: string[] = [];
  for (const entry of enabled(entries)) {
    if (entry.type === 'file') {
      notes.push({ where, message: l10n.t('The form field {0} sends a file: file parts are not imported, add it by hand.', entry.key!) });
      continue;
    }
    parts.push(`--${FORM_BOUNDARY}\nContent-Disposition: form-data; name="${entry.key!.replace(/"/g, '%22')}"\n\n${text(entry.value)}`);
  }
  return `${parts.join('\n')}\n--${FORM_BOUNDARY}--`;
}

/** The body and the Content-Type it implies (when the request sets none). */
function bodyOf(body: PostmanBody | undefined, where: string, notes: ImportNote[]): { text?: string; type?: string } {
  if (!body || body.disabled || !body.mode) return {};
  switch (body.mode) {
    case 'raw':
      return body.raw ? { text: body.raw, type: RAW_TYPES[body.options?.raw?.language ?? ''] } : {};
    case 'urlencoded':
      return enabled(body.urlencoded).length > 0 ? { text: urlencodedBody(body.urlencoded ?? []), type: 'application/x-www-form-urlencoded' } : {};
    case 'formdata':
      return enabled(body.formdata).length > 0 ? { text: formBody(body.formdata ?? [], where, notes), type: `multipart/form-data; boundary=${FORM_BOUNDARY}` } : {};
    case 'graphql': {
      let variables: unknown = {};
      try {
        variables = body.graphql?.variables?.trim() ? JSON.parse(body.graphql.variables) : {};
      } catch {
        notes.push({ where, message: l10n.t('The GraphQL variables are not JSON: left out.') });
      }
      return { text: JSON.stringify({ query: body.graphql?.query ?? '', variables }, null, 2), type: 'application/json' };
    }
    case 'file': {
      const source = text(body.file?.src);
      if (source) return { text: `< ${source}` };
      notes.push({ where, message: l10n.t('The body is a file Postman did not name: left out.') });
      return {};
    }
    default:
      notes.push({ where, message: l10n.t('The body of kind "{0}" is not imported.', body.mode) });
      return {};
  }
}

/** The request as a draft; what could not come along goes into `notes`. */
export function readPostmanRequest(request: PostmanRequest | string, where: string, notes: ImportNote[]): DraftRequest {
  const value: PostmanRequest = typeof request === 'string' ? { url: request } : request;
  const url = withSystemVariables(urlOf(value.url), where, notes);
  if (url.trim() === '') notes.push({ where, message: l10n.t('The request has no URL: fill it in.') });
  const headers = headersOf(value.header).map(([name, header]): [string, string] => [name, withSystemVariables(header, where, notes)]);
  const body = bodyOf(value.body, where, notes);
  if (body.text !== undefined && body.type && headerValue(headers, 'content-type') === undefined) headers.push(['Content-Type', body.type]);
  const bodyText = body.text === undefined ? undefined : withSystemVariables(body.text, where, notes);
  return { method: (value.method ?? 'GET').toUpperCase(), url: url.trim() || '/', headers: importedHeaders(headers, notes, where), body: bodyText };
}
