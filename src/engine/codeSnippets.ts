/**
 * Copy as Code: a request as code in the languages integrators use, from httpsnippet (Kong's snippet
 * generator), cURL from the one cURL builder (curlCommand.ts). Every header the platform needs is in
 * the snippet (the header policy's, requestHeaders.clientHeaders), and no secret: the token, the
 * licence key and any secret header value are read from environment variables in the snippet's own
 * language, named as the runner names them (TENANT_API_TOKEN, TENANT_API_KEY_<MODULE>). Loaded only
 * when a snippet is asked for (its own bundle, dist/codeSnippets.js). No `vscode` here.
 */
import { HTTPSnippet, type HarRequest } from 'httpsnippet';
import { clientHeaders } from '../api/requestHeaders';
import type { RouteRule } from '../api/types';
import { licenceKeyVariable, TOKEN_VARIABLE } from '../common/secretVariables';
import { buildCurlCommand } from './curlCommand';

export interface SnippetLanguage {
  id: string;
  label: string;
  /** httpsnippet's target and client; undefined: the cURL builder. */
  target?: string;
  client?: string;
  /** An environment variable's value as an expression of the language. */
  readEnv: (name: string) => string;
  /** Joins literal parts and expressions into one expression. */
  join: (parts: string[]) => string;
  /** Adds what the environment reads need (an import). */
  prepare?: (code: string) => string;
}

/** The languages offered, in the order of the quick pick. */
export const SNIPPET_LANGUAGES: readonly SnippetLanguage[] = [
  { id: 'javascript', label: 'JavaScript / TypeScript (fetch)', target: 'javascript', client: 'fetch', readEnv: (name) => `process.env.${name}`, join: (parts) => parts.join(' + ') },
  { id: 'python', label: 'Python (requests)', target: 'python', client: 'requests', readEnv: (name) => `os.environ["${name}"]`, join: (parts) => parts.join(' + '), prepare: (code) => `import os\n${code}` },
  { id: 'csharp', label: 'C# (HttpClient)', target: 'csharp', client: 'httpclient', readEnv: (name) => `Environment.GetEnvironmentVariable("${name}")`, join: (parts) => parts.join(' + ') },
  { id: 'java', label: 'Java (java.net.http)', target: 'java', client: 'nethttp', readEnv: (name) => `System.getenv("${name}")`, join: (parts) => parts.join(' + ') },
  { id: 'go', label: 'Go (net/http)', target: 'go', client: 'native', readEnv: (name) => `os.Getenv("${name}")`, join: (parts) => parts.join(' + '), prepare: (code) => code.replace(/^import \(\n/m, 'import (\n\t"os"\n') },
  { id: 'php', label: 'PHP (Guzzle)', target: 'php', client: 'guzzle', readEnv: (name) => `getenv('${name}')`, join: (parts) => parts.join(' . ') },
  { id: 'powershell', label: 'PowerShell (Invoke-RestMethod)', target: 'powershell', client: 'restmethod', readEnv: (name) => `$env:${name}`, join: (parts) => `(${parts.join(' + ')})` },
  { id: 'curl', label: 'cURL (bash)', readEnv: (name) => `$${name}`, join: (parts) => parts.join('') },
];

export interface SnippetRequest {
  method: string;
  /** The full URL, query included. */
  url: string;
  /** The request's own headers (never credential headers). */
  headers: Record<string, string>;
  body?: string;
  /** A platform call: its route (the licence module, whether a tenant is needed) and tenant. Undefined for another host: no credentials. */
  platform?: { route?: RouteRule; tenantId?: string };
  /** Values that must not appear (a request file's secret variables). */
  secrets?: readonly string[];
}

export interface Snippet {
  code: string;
  /** The environment variables the code reads. */
  variables: string[];
}

const PLACEHOLDER = (index: number) => `__TENANT_API_ENV_${index}__`;
const PLACEHOLDER_PATTERN = /__TENANT_API_ENV_(\d+)__/g;

/** A header name as an environment variable's: `X-Api-Token` → `X_API_TOKEN`. */
function variableOf(header: string): string {
  return header.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase() || 'TENANT_API_SECRET';
}

/** The headers as sent, the secrets as placeholders (each standing for an environment variable). */
function headersWithPlaceholders(request: SnippetRequest, variables: string[]): Record<string, string> {
  const placeholder = (name: string) => PLACEHOLDER(variables.push(name) - 1);
  const platform = request.platform;
  const module = platform?.route?.module;
  const headers: Record<string, string> = platform
    ? clientHeaders(platform.route, { token: placeholder(TOKEN_VARIABLE), licenceKey: module ? placeholder(licenceKeyVariable(module)) : undefined, tenantId: platform.tenantId })
    : {};
  if (request.body === undefined) delete headers['Content-Type'];
  for (const [name, value] of Object.entries(request.headers)) {
    const existing = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    if (existing) delete headers[existing];
    headers[name] = request.secrets?.includes(value) ? placeholder(variableOf(name)) : value;
  }
  return headers;
}

/** Every string literal holding placeholders becomes the language's expression of literal parts and environment reads. */
function readFromEnvironment(code: string, language: SnippetLanguage, variables: readonly string[]): string {
  const literal = /(["'])((?:(?!\1)[^\\\n]|\\.)*?__TENANT_API_ENV_\d+__(?:(?!\1)[^\\\n]|\\.)*?)\1/g;
  const replaced = code.replace(literal, (_whole, quote: string, content: string) => {
    const parts = content.split(PLACEHOLDER_PATTERN).flatMap((part, index) => {
      if (index % 2 === 1) return [language.readEnv(variables[Number(part)])];
      return part === '' ? [] : [`${quote}${part}${quote}`];
    });
    return language.join(parts);
  });
  return language.prepare ? language.prepare(replaced) : replaced;
}

function harRequest(request: SnippetRequest, headers: Record<string, string>): HarRequest {
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return {
    method: request.method.toUpperCase(),
    url: request.url,
    httpVersion: 'HTTP/1.1',
    headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
    queryString: [],
    cookies: [],
    headersSize: -1,
    bodySize: -1,
    ...(request.body !== undefined ? { postData: { mimeType: type ?? 'application/octet-stream', text: request.body } } : {}),
  } as HarRequest;
}

/** Secret values the snippet would still show (in the URL or the body): masked. */
function withoutSecrets(text: string, secrets: readonly string[] | undefined): string {
  return (secrets ?? []).reduce((result, secret) => (secret.length >= 3 ? result.split(secret).join('***') : result), text);
}

/** cURL from the one cURL builder: the token, the licence key and secret headers as shell variables. */
function curlSnippet(request: SnippetRequest, headers: Record<string, string>, variables: readonly string[]): Snippet {
  const fromVariables: Record<string, string> = {};
  let keyVariable: string | undefined;
  for (const [name, value] of Object.entries(headers)) {
    const only = /^__TENANT_API_ENV_(\d+)__$/.exec(value);
    if (name.toLowerCase() === 'authorization-key' && only) keyVariable = variables[Number(only[1])];
    else if (only) fromVariables[name] = variables[Number(only[1])];
  }
  const code = buildCurlCommand({ method: request.method, url: request.url, headers, body: request.body }, { keyVariable, fromVariables });
  return { code, variables: [...new Set(variables)] };
}

export function buildSnippet(languageId: string, request: SnippetRequest): Snippet {
  const language = SNIPPET_LANGUAGES.find((candidate) => candidate.id === languageId);
  if (!language) throw new RangeError(`no snippet language ${languageId}`);
  const variables: string[] = [];
  const safe = { ...request, url: withoutSecrets(request.url, request.secrets), body: request.body === undefined ? undefined : withoutSecrets(request.body, request.secrets) };
  const headers = headersWithPlaceholders(safe, variables);
  if (!language.target) return curlSnippet(safe, headers, variables);
  const code = new HTTPSnippet(harRequest(safe, headers)).convert(language.target as never, language.client);
  if (typeof code !== 'string') throw new Error(`httpsnippet gave no ${language.label} snippet`);
  return { code: readFromEnvironment(code, language, variables), variables: [...new Set(variables)] };
}
