/**
 * `{{...}}` references and their values. A reference is one of:
 * - a system variable `{{$guid}}` (systemVariables.ts);
 * - a request variable `{{login.response.body.$.id}}`, `{{login.response.headers.Location}}`
 *   (also `request` instead of `response`, and `body.*` for the whole body);
 * - a plain name: a file variable (`@host = ...`), else a variable of the active environment.
 * File variables may refer to other variables; a loop ends with a problem, not a hang.
 */
import * as l10n from '../common/l10n';
import { evaluateJsonPath, parseJsonPath, valueAsText } from './jsonPath';
import { evaluateSystemVariable, type SystemVariableContext } from './systemVariables';

export const REFERENCE = /\{\{\s*([^{}]*?)\s*\}\}/g;

export type Reference =
  | { kind: 'system'; expression: string }
  | { kind: 'request'; name: string; part: 'request' | 'response'; section: 'body' | 'headers'; path: string }
  | { kind: 'name'; name: string };

const REQUEST_REFERENCE = /^([\w-]+)\.(request|response)\.(body|headers)(?:\.(.*))?$/;

export function classifyReference(expression: string): Reference {
  if (expression.startsWith('$')) return { kind: 'system', expression };
  const request = REQUEST_REFERENCE.exec(expression);
  if (request) {
    return {
      kind: 'request',
      name: request[1],
      part: request[2] as 'request' | 'response',
      section: request[3] as 'body' | 'headers',
      path: request[4] ?? '*',
    };
  }
  return { kind: 'name', name: expression };
}

/** What a sent request left behind for the next ones (header names lower-case). */
export interface RequestResult {
  request: { headers: Record<string, string>; body?: string };
  response: { headers: Record<string, string>; bodyText: string; json?: unknown };
}

export interface VariableSources {
  /** The columns of the data row being run (`--data`, `# @data`): they win over every other name. */
  row?: Readonly<Record<string, string>>;
  /** File variables as written, the last definition of each name. */
  fileVariables: ReadonlyMap<string, string>;
  environment: Readonly<Record<string, string>>;
  /** Names of the environment's variables whose values are secrets (from a private environment file). */
  secretNames?: ReadonlySet<string>;
  /** Names of the file's named requests. */
  requestNames: ReadonlySet<string>;
  result(name: string): RequestResult | undefined;
  system: SystemVariableContext;
}

export type ReferenceProblemKind = 'unknownVariable' | 'unknownRequest' | 'notSent' | 'noValue' | 'invalid';

export interface ReferenceProblem {
  expression: string;
  kind: ReferenceProblemKind;
  /** For notSent/unknownRequest: the request's name. */
  name?: string;
  message: string;
}

export interface Resolved {
  text: string;
  problems: ReferenceProblem[];
  /** Values that came from secret sources ($processEnv, names that look like secrets): for masking. */
  secrets: string[];
}

const SECRET_NAME = /(token|secret|password|passwd|pwd|apikey|api_key|credential|key)$/i;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

type Lookup = { ok: true; value: string; secret: boolean } | { ok: false; problem: Omit<ReferenceProblem, 'expression'> };

const MAX_DEPTH = 10;

export function resolveText(text: string, sources: VariableSources): Resolved {
  const problems: ReferenceProblem[] = [];
  const secrets: string[] = [];
  const out = substitute(text, sources, 0, problems, secrets);
  return { text: out, problems, secrets };
}

function substitute(text: string, sources: VariableSources, depth: number, problems: ReferenceProblem[], secrets: string[]): string {
  if (!text.includes('{{')) return text;
  return text.replace(REFERENCE, (whole, expression: string) => {
    const found = lookup(expression, sources, depth, problems, secrets);
    if (!found.ok) {
      problems.push({ expression, ...found.problem });
      return whole;
    }
    if (found.secret && found.value) secrets.push(found.value);
    return found.value;
  });
}

/** The value of one reference (the text between the braces). */
export function lookupReference(expression: string, sources: VariableSources): Resolved {
  const problems: ReferenceProblem[] = [];
  const secrets: string[] = [];
  const found = lookup(expression.trim(), sources, 0, problems, secrets);
  if (!found.ok) return { text: '', problems: [...problems, { expression, ...found.problem }], secrets };
  if (found.secret) secrets.push(found.value);
  return { text: found.value, problems, secrets };
}

function lookup(expression: string, sources: VariableSources, depth: number, problems: ReferenceProblem[], secrets: string[]): Lookup {
  const reference = classifyReference(expression);
  if (reference.kind === 'system') {
    const result = evaluateSystemVariable(reference.expression, sources.system);
    return result.ok
      ? { ok: true, value: result.value, secret: result.secret === true }
      : { ok: false, problem: { kind: 'invalid', message: result.reason } };
  }
  if (reference.kind === 'request') return lookupRequest(reference, sources);
  const column = sources.row?.[reference.name];
  if (column !== undefined) return { ok: true, value: column, secret: looksSecret(reference.name) };
  const file = sources.fileVariables.get(reference.name);
  if (file !== undefined) {
    if (depth >= MAX_DEPTH) {
      return { ok: false, problem: { kind: 'invalid', message: l10n.t('The variable {0} refers to itself (through other variables).', reference.name) } };
    }
    const value = substitute(file, sources, depth + 1, problems, secrets);
    return { ok: true, value, secret: looksSecret(reference.name) };
  }
  const environment = sources.environment[reference.name];
  if (environment !== undefined) return { ok: true, value: environment, secret: looksSecret(reference.name) || sources.secretNames?.has(reference.name) === true };
  return { ok: false, problem: { kind: 'unknownVariable', message: l10n.t('The variable {0} is not defined in this file or in the active environment.', reference.name) } };
}

function lookupRequest(reference: Extract<Reference, { kind: 'request' }>, sources: VariableSources): Lookup {
  const { name } = reference;
  if (!sources.requestNames.has(name)) {
    return { ok: false, problem: { kind: 'unknownRequest', name, message: l10n.t('No request in this file is named {0} (# @name {0}).', name) } };
  }
  const result = sources.result(name);
  if (!result) {
    return { ok: false, problem: { kind: 'notSent', name, message: l10n.t('The request {0} has not been sent yet.', name) } };
  }
  const part = reference.part === 'request' ? result.request : result.response;
  if (reference.section === 'headers') {
    const value = part.headers[reference.path.toLowerCase()];
    if (value === undefined) {
      return { ok: false, problem: { kind: 'noValue', name, message: l10n.t('The {0} of {1} has no header {2}.', reference.part, name, reference.path) } };
    }
    return { ok: true, value, secret: false };
  }
  const bodyText = 'bodyText' in part ? part.bodyText : (part.body ?? '');
  if (reference.path === '*') return { ok: true, value: bodyText, secret: false };
  const path = parseJsonPath(reference.path);
  if (!path.ok) return { ok: false, problem: { kind: 'invalid', name, message: l10n.t('{0}: {1}', reference.path, path.reason) } };
  let json = 'json' in part ? part.json : undefined;
  if (json === undefined) {
    try {
      json = JSON.parse(bodyText);
    } catch {
      return { ok: false, problem: { kind: 'noValue', name, message: l10n.t('The {0} body of {1} is not JSON.', reference.part, name) } };
    }
  }
  const value = valueAsText(evaluateJsonPath(json, path.steps));
  if (value === undefined) {
    return { ok: false, problem: { kind: 'noValue', name, message: l10n.t('{0} selects nothing in the {1} body of {2}.', reference.path, reference.part, name) } };
  }
  return { ok: true, value, secret: false };
}

/** Every `{{...}}` in a line, with its column range (for diagnostics and hover). */
export function referencesInLine(line: string): Array<{ expression: string; start: number; end: number }> {
  const found: Array<{ expression: string; start: number; end: number }> = [];
  if (!line.includes('{{')) return found;
  for (const match of line.matchAll(REFERENCE)) {
    found.push({ expression: match[1], start: match.index, end: match.index + match[0].length });
  }
  return found;
}
