/**
 * An operation as a request of a request file: `# @name` from its operationId, path parameters as
 * file variables, the required query and header parameters with their examples, the JSON body, and
 * a status assertion for its documented success. The platform's credential headers are never
 * written (the client adds them); what a request file cannot express is a comment saying so.
 */
import { isCredentialHeader } from '../api/requestHeaders';
import * as l10n from '../common/l10n';
import type { CatalogueOperation, CatalogueParameter } from './types';

export interface RequestBlock {
  /** The block's lines (no separator). */
  lines: string[];
  /** File variables the path uses, with a starting value. */
  variables: Array<{ name: string; value: string }>;
  /** What was left out, one sentence each (the block holds them as comments too). */
  omitted: string[];
}

const VARIABLE = /^[A-Za-z_][\w.-]*$/;

/** A value as a request file writes it in a URL or header: text as is, anything else as JSON. */
function written(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function placeholder(parameter: CatalogueParameter): string {
  if (parameter.example !== undefined) return written(parameter.example);
  return parameter.type === 'integer' || parameter.type === 'number' ? '1' : parameter.type === 'boolean' ? 'true' : '';
}

/** A request name from the operationId (letters, digits, `_`, `-`), else undefined. */
export function requestName(operation: CatalogueOperation): string | undefined {
  const id = operation.operationId?.replace(/[^\w-]+/g, '_').replace(/^_+|_+$/g, '');
  return id ? (/^\d/.test(id) ? `_${id}` : id) : undefined;
}

/** The assertion lines of the documented success: `?? status == 201`, or the range of `2XX`. */
export function statusAssertions(operation: CatalogueOperation): string[] {
  const exact = operation.responses.map((response) => response.status).filter((status) => /^2\d\d$/.test(status)).sort();
  if (exact.length > 0) return [`?? status == ${exact[0]}`];
  return operation.responses.some((response) => response.status === '2XX') ? ['?? status >= 200', '?? status < 300'] : [];
}

function comments(text: string | undefined): string[] {
  return text ? text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean).slice(0, 3).map((line) => `# ${line}`) : [];
}

function omissions(operation: CatalogueOperation): string[] {
  const omitted: string[] = [];
  for (const cookie of operation.parameters.filter((parameter) => parameter.in === 'cookie')) {
    omitted.push(l10n.t('The cookie parameter {0} is not imported: request files send no cookies.', cookie.name));
  }
  if (operation.body && !operation.body.json) {
    omitted.push(l10n.t('The body ({0}) is not imported: request files send JSON bodies; write it by hand.', operation.body.mediaType));
  }
  return omitted;
}

/** The request block of `operation`; `body` is the JSON body to write (its example or a sample), if it takes one. */
export function requestBlock(operation: CatalogueOperation, body?: unknown, name = requestName(operation)): RequestBlock {
  const variables: RequestBlock['variables'] = [];
  const path = operation.path.replace(/\{([^{}/]+)\}/g, (whole, parameterName: string) => {
    if (!VARIABLE.test(parameterName)) return whole;
    const parameter = operation.parameters.find((candidate) => candidate.in === 'path' && candidate.name === parameterName);
    variables.push({ name: parameterName, value: parameter ? placeholder(parameter) : '' });
    return `{{${parameterName}}}`;
  });
  const required = (place: string) => operation.parameters.filter((parameter) => parameter.in === place && parameter.required);
  const query = required('query').map((parameter) => `${encodeURIComponent(parameter.name)}=${encodeURIComponent(placeholder(parameter))}`);
  const optional = operation.parameters.filter((parameter) => parameter.in === 'query' && !parameter.required).map((parameter) => parameter.name);
  const headers = required('header').filter((parameter) => !isCredentialHeader(parameter.name) && !/^(accept|content-type)$/i.test(parameter.name));
  const omitted = omissions(operation);
  const lines = [
    ...comments(operation.summary ?? operation.description),
    ...(operation.deprecated ? ['# ' + l10n.t('Deprecated.')] : []),
    ...(optional.length > 0 ? ['# ' + l10n.t('Optional query parameters: {0}', optional.join(', '))] : []),
    ...omitted.map((sentence) => `# ${sentence}`),
    ...(name ? [`# @name ${name}`] : []),
    `${operation.method} ${path}${query.length > 0 ? `?${query.join('&')}` : ''}`,
    ...headers.map((parameter) => `${parameter.name}: ${placeholder(parameter)}`),
  ];
  if (body !== undefined && operation.body?.json) lines.push(`Content-Type: ${operation.body.mediaType}`, '', JSON.stringify(body, null, 2));
  const assertions = statusAssertions(operation);
  if (assertions.length > 0) lines.push('', ...assertions);
  return { lines, variables, omitted };
}

/** A whole request file of operations: their file variables first, each request after a separator. */
export function requestFileText(blocks: ReadonlyArray<RequestBlock>, heading: string[] = []): string {
  const variables = new Map<string, string>();
  for (const block of blocks) for (const variable of block.variables) if (!variables.has(variable.name)) variables.set(variable.name, variable.value);
  const head = [...heading.map((line) => `# ${line}`), ...[...variables].map(([name, value]) => `@${name} = ${value}`)];
  const parts = blocks.map((block) => ['###', ...block.lines].join('\n'));
  return `${[...(head.length > 0 ? [head.join('\n'), ''] : []), parts.join('\n\n')].join('\n')}\n`;
}

/** Names unique in one file: a second `listPets` becomes `listPets_2`. */
export function uniqueNames(operations: readonly CatalogueOperation[]): Array<string | undefined> {
  const used = new Map<string, number>();
  return operations.map((operation) => {
    const name = requestName(operation);
    if (!name) return undefined;
    const count = (used.get(name) ?? 0) + 1;
    used.set(name, count);
    return count === 1 ? name : `${name}_${count}`;
  });
}
