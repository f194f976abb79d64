/**
 * The problems a request file shows while it is edited: what the parser found, unknown variables and
 * requests, paths no route serves, malformed JSON bodies, credential headers written in the file and
 * tenants that are not the user's. Pure: the VS Code layer turns these into Diagnostics.
 */
import type { RouteRule, TenantRecord } from '../api/types';
import * as l10n from '../common/l10n';
import { splitLines, tenantOf, type ParsedFile, type ParsedRequest, type ParseProblem } from './parser';
import { isCredentialHeader } from '../api/requestHeaders';
import { findTenant } from '../api/tenantResolver';
import { evaluateSystemVariable, type SystemVariableContext } from './systemVariables';
import { classifyReference, referencesInLine } from './variables';
import { malformedJsonBody } from './jsonBody';

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
}

function parseMessage(problem: ParseProblem): string {
  switch (problem.message) {
    case 'unknownMethod':
      return l10n.t('"{0}" is not an HTTP method.', problem.detail ?? '');
    case 'headerWithoutColon':
      return l10n.t('A header is written "Name: value"; put a blank line before the body.');
    case 'duplicateName':
      return l10n.t('Another request is already named {0}: its responses would be mixed up.', problem.detail ?? '');
    case 'curlNotSupported':
      return l10n.t('cURL commands are not supported in request files: write the request line instead.');
    case 'assertion':
      return problem.detail ?? '';
    case 'assertionWithoutRequest':
      return l10n.t('This assertion has no request to check: put it in a block with a request line.');
    case 'scriptNotRun':
      return l10n.t('Scripts in request files are never run (a file from a pull request must not run code on your machine): this block is ignored. Use ?? assertion lines and request variables instead.');
  }
}

/** The code a parse problem is shown with: assertion and script problems have their own, for quick fixes and filters. */
function parseCode(problem: ParseProblem): DiagnosticCode {
  if (problem.message === 'assertion' || problem.message === 'assertionWithoutRequest') return 'assertion';
  return problem.message === 'scriptNotRun' ? 'script' : 'parse';
}

const WARNING_PROBLEMS: ReadonlySet<ParseProblem['message']> = new Set(['duplicateName', 'scriptNotRun']);

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
  const malformed = malformedJsonBody(lines, request);
  if (malformed) {
    // At the offending character, so the Problems view and the quick fix point at it.
    const columns = { start: malformed.column, end: Math.min(malformed.column + 1, lines[malformed.line].length) };
    report(malformed.line, 'error', 'malformedJson', l10n.t('The body is not valid JSON: {0} (line {1}, column {2})', malformed.message, malformed.line + 1, malformed.column + 1), columns);
  }
  const tenant = tenantOf(file, request);
  if (tenant && !tenant.includes('{{') && context.tenants?.length && !findTenant(tenant, context.tenants)) {
    const line = request.metadata.tenant?.line ?? [...file.variables].reverse().find((variable) => variable.name === 'tenant')?.line ?? request.requestLine;
    report(line, 'warning', 'unknownTenant', l10n.t('{0} is not one of your tenants (code, description or id).', tenant));
  }
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
