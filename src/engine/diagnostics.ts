/**
 * The problems a request file shows while it is edited: what the parser found, unknown variables and
 * requests, paths no route serves, malformed JSON bodies, credential headers written in the file and
 * tenants that are not the user's. Pure: the VS Code layer turns these into Diagnostics.
 */
import type { RouteRule, TenantRecord } from '../api/types';
import * as l10n from '../common/l10n';
import { closestMethod, splitLines, tenantOf, type ParsedFile, type ParsedRequest, type ParseProblem } from './parser';
import { isCredentialHeader } from '../api/requestHeaders';
import { findTenant } from '../api/tenantResolver';
import { evaluateSystemVariable, type SystemVariableContext } from './systemVariables';
import { classifyReference, referencesInLine } from './variables';
import type { LocatedViolation } from '../catalog/types';
import { jsonProblem } from '../common/jsonProblem';
import { isJsonBody, malformedJsonBody } from './jsonBody';

export { jsonProblem };

export type Severity = 'error' | 'warning' | 'information';

/**
 * Every diagnostic's code: shown in the Problems view and matched by the quick fixes
 * (src/requestFiles/quickFixes.ts), never the message. Stable: a code is never renamed or reused.
 */
export const DIAGNOSTIC_CODES = [
  'parse',
  'unknownVariable',
  'unknownRequest',
  'badSystemVariable',
  'noRoute',
  'badUrl',
  'malformedJson',
  'credentialHeader',
  'unknownTenant',
  'assertion',
  'script',
  'schema',
  'unknownMethod',
  'curlCommand',
  'missingSeparator',
] as const;

export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

export interface FileDiagnostic {
  line: number;
  start: number;
  end: number;
  severity: Severity;
  code: DiagnosticCode;
  message: string;
}

export interface DiagnosticContext {
  routeFor(path: string): RouteRule | undefined;
  environment: Readonly<Record<string, string>>;
  /** The user's tenants when known; undefined or empty skips the tenant check (not signed in, not loaded yet). */
  tenants?: readonly TenantRecord[];
  system: SystemVariableContext;
  /**
   * Where a JSON body (its text, valid JSON) breaks the schema its catalogue documents for the request,
   * each violation at its offset in the text (undefined: no catalogue documents it, or not known yet).
   */
  bodyCheck?(method: string, url: string, bodyText: string): { operation: string; violations: readonly LocatedViolation[] } | undefined;
}

function parseMessage(problem: ParseProblem): string {
  switch (problem.message) {
    case 'unknownMethod': {
      const closest = closestMethod(problem.detail ?? '');
      return closest
        ? l10n.t('Unknown method "{0}": did you mean {1}? The request line is METHOD URL.', problem.detail ?? '', closest)
        : l10n.t('Unknown method "{0}": the request line is METHOD URL, with GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or another HTTP method.', problem.detail ?? '');
    }
    case 'headerWithoutColon':
      return l10n.t('A header is written "Name: value"; put a blank line before the body.');
    case 'duplicateName':
      return l10n.t('Another request is already named {0}: its responses would be mixed up.', problem.detail ?? '');
    case 'curlNotSupported':
      return l10n.t('This is a cURL command: a request file holds a request line instead. The quick fix converts it.');
    case 'assertion':
      return problem.detail ?? '';
    case 'assertionWithoutRequest':
      return l10n.t('This assertion has no request to check: put it in a block with a request line.');
    case 'scriptNotRun':
      return l10n.t('Scripts in request files are never run (a file from a pull request must not run code on your machine): this block is ignored. Use ?? assertion lines and request variables instead.');
    case 'missingSeparator':
      return l10n.t('Another request starts here without a ### line above it: it is read as a request of its own. Add the ### line to say so.');
  }
}

/** The code each parse problem is shown with: those with quick fixes or filters of their own have their own code. */
const PARSE_CODES: Partial<Record<ParseProblem['message'], DiagnosticCode>> = {
  assertion: 'assertion',
  assertionWithoutRequest: 'assertion',
  scriptNotRun: 'script',
  unknownMethod: 'unknownMethod',
  curlNotSupported: 'curlCommand',
  missingSeparator: 'missingSeparator',
};

function parseCode(problem: ParseProblem): DiagnosticCode {
  return PARSE_CODES[problem.message] ?? 'parse';
}

const WARNING_PROBLEMS: ReadonlySet<ParseProblem['message']> = new Set(['duplicateName', 'scriptNotRun', 'missingSeparator']);

export function diagnoseRequestFile(text: string, file: ParsedFile, context: DiagnosticContext): FileDiagnostic[] {
  const lines = splitLines(text);
  const out: FileDiagnostic[] = [];
  const whole: Reporter = (line, severity, code, message, columns) =>
    out.push({ line, start: columns?.start ?? lines[line].length - lines[line].trimStart().length, end: columns?.end ?? lines[line].length, severity, code, message });

  for (const problem of file.problems) {
    const columns = problem.start !== undefined && problem.end !== undefined ? { start: problem.start, end: problem.end } : undefined;
    whole(problem.line, WARNING_PROBLEMS.has(problem.message) ? 'warning' : 'error', parseCode(problem), parseMessage(problem), columns);
  }
  for (const request of file.requests) diagnoseRequest(lines, file, request, context, whole);
  diagnoseReferences(lines, file, context, out);
  // The file's `@tenant` is checked for every request that uses it: report it once.
  const seen = new Set<string>();
  return out.filter((item) => {
    const key = `${item.line}:${item.start}:${item.code}:${item.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

type Reporter = (line: number, severity: Severity, code: DiagnosticCode, message: string, columns?: { start: number; end: number }) => void;

function diagnoseRequest(lines: readonly string[], file: ParsedFile, request: ParsedRequest, context: DiagnosticContext, report: Reporter): void {
  const url = request.url;
  if (url.startsWith('/') && !url.startsWith('//')) {
    const path = url.split('?')[0];
    if (!path.includes('{{') && !context.routeFor(path)) {
      report(request.requestLine, 'error', 'noRoute', l10n.t('No route is known for {0}. Add a rule to the setting tenantApi.routes.', path));
    }
  } else if (url !== '' && !url.startsWith('{{') && !/^https?:\/\//i.test(url)) {
    report(request.requestLine, 'error', 'badUrl', l10n.t('"{0}" is neither a path starting with "/" nor an http(s) address.', url.slice(0, 200)));
  }
  for (const header of request.headers) {
    if (isCredentialHeader(header.name)) {
      report(
        header.line,
        'warning',
        'credentialHeader',
        l10n.t('{0} is not sent from a file: the extension sets it from your sign-in, licence key and tenant. Secrets do not belong in files.', header.name),
      );
    }
  }
  const body = request.body;
  const malformed = malformedJsonBody(lines, request);
  if (malformed) {
    // At the offending character, so the Problems view and the quick fix point at it.
    const columns = { start: malformed.column, end: Math.min(malformed.column + 1, lines[malformed.line].length) };
    report(malformed.line, 'error', 'malformedJson', l10n.t('The body is not valid JSON: {0} (line {1}, column {2})', malformed.message, malformed.line + 1, malformed.column + 1), columns);
  } else if (body?.kind === 'inline' && context.bodyCheck && isJsonBody(request, body.text)) {
    diagnoseBodySchema(lines, request, body, context.bodyCheck, report);
  }
  const tenant = tenantOf(file, request);
  if (tenant && !tenant.includes('{{') && context.tenants?.length && !findTenant(tenant, context.tenants)) {
    const line = request.metadata.tenant?.line ?? [...file.variables].reverse().find((variable) => variable.name === 'tenant')?.line ?? request.requestLine;
    report(line, 'warning', 'unknownTenant', l10n.t('{0} is not one of your tenants (code, description or id).', tenant));
  }
}

/**
 * A JSON body against its documented schema: each place it breaks is a warning there (the value, or
 * the property), naming the JSON path and the rule. A value that is a `{{variable}}` is not judged.
 */
function diagnoseBodySchema(
  lines: readonly string[],
  request: ParsedRequest,
  body: { text: string; startLine: number },
  check: NonNullable<DiagnosticContext['bodyCheck']>,
  report: Reporter,
): void {
  const standIn = body.text.replace(/\{\{[^{}]*\}\}/g, (reference) => '0'.padEnd(reference.length, ' '));
  const found = check(request.method, request.url, standIn);
  if (!found) return;
  const bodyOffset = lineOffset(lines, body.startLine);
  for (const violation of found.violations) {
    if (body.text.startsWith('{{', violation.offset)) continue;
    const at = positionOf(lines, bodyOffset + violation.offset);
    const end = Math.min(lines[at.line].length, at.character + violation.length);
    report(at.line, 'warning', 'schema', l10n.t('The body does not match the schema of {0}: {1} {2} ({3})', found.operation, violation.path, violation.message, violation.rule), { start: at.character, end });
  }
}

function lineOffset(lines: readonly string[], line: number): number {
  let offset = 0;
  for (let index = 0; index < line; index++) offset += lines[index].length + 1;
  return offset;
}

function positionOf(lines: readonly string[], offset: number): { line: number; character: number } {
  let line = 0;
  while (line < lines.length - 1 && offset > lines[line].length) {
    offset -= lines[line].length + 1;
    line++;
  }
  return { line, character: offset };
}

function diagnoseReferences(lines: readonly string[], file: ParsedFile, context: DiagnosticContext, out: FileDiagnostic[]): void {
  const defined = new Set(file.variables.map((variable) => variable.name));
  const requests = new Set(file.requests.flatMap((request) => (request.name ? [request.name] : [])));
  lines.forEach((text, line) => {
    if (!text.includes('{{') || /^\s*(#|\/\/)(?!\s*@)/.test(text)) return;
    for (const found of referencesInLine(text)) {
      const reference = classifyReference(found.expression);
      const at = { line, start: found.start, end: found.end };
      if (reference.kind === 'name' && !defined.has(reference.name) && !(reference.name in context.environment)) {
        out.push({ ...at, severity: 'warning', code: 'unknownVariable', message: l10n.t('The variable {0} is not defined in this file or in the active environment.', reference.name) });
      } else if (reference.kind === 'request' && !requests.has(reference.name)) {
        out.push({ ...at, severity: 'error', code: 'unknownRequest', message: l10n.t('No request in this file is named {0} (# @name {0}).', reference.name) });
      } else if (reference.kind === 'system') {
        const result = evaluateSystemVariable(reference.expression, context.system);
        if (!result.ok) out.push({ ...at, severity: 'warning', code: 'badSystemVariable', message: result.reason });
      }
    }
  });
}
