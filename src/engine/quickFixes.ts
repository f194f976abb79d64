/**
 * The quick fixes of a request file's diagnostics: which change answers which diagnostic, matched on
 * the diagnostic's code (DIAGNOSTIC_CODES), never on its message. Pure: the VS Code layer turns a fix
 * into a code action (an edit, a cursor move, or a quick pick whose answer is written into the file).
 */
import { proposeRule } from '../api/routes';
import * as l10n from '../common/l10n';
import type { DiagnosticCode } from './diagnostics';
import { formatJsonBody } from './jsonFormat';

export { formatJsonBody };
import { curlAsRequestText } from './importers/curl';
import { commandExtent } from './importers/shellWords';
import { closestMethod, splitLines, type ParsedFile, type ParsedRequest } from './parser';
import { classifyReference } from './variables';

/** 0-based lines and columns, the end excluded. */
export interface FixRange {
  line: number;
  start: number;
  endLine: number;
  end: number;
}

export interface TextChange {
  range: FixRange;
  newText: string;
}

export type QuickFix =
  /** Changes the file; then puts the cursor at `cursor` when given, or says `notes` (what a conversion left out). */
  | { kind: 'edit'; title: string; changes: TextChange[]; cursor?: { line: number; character: number }; notes?: string[]; preferred?: boolean }
  /** Selects `range`, showing where the problem is. */
  | { kind: 'reveal'; title: string; range: FixRange }
  /** Asks which of the user's tenants, then writes `before + code + after` over `range`. */
  | { kind: 'pickTenant'; title: string; range: FixRange; before: string; after: string; preferred?: boolean }
  /** Asks which host serves `prefix` and which licence key it needs, then adds the rule to tenantApi.routes. */
  | { kind: 'addRoute'; title: string; path: string; prefix: string; preferred?: boolean };

/** Where a diagnostic is, and its code (a diagnostic of another source has a code of its own: no fix). */
export interface DiagnosticAt {
  code: string;
  line: number;
  start: number;
  end: number;
}

interface FixInput {
  lines: readonly string[];
  file: ParsedFile;
  at: DiagnosticAt;
  request: ParsedRequest | undefined;
}

/** The table: the fixes each diagnostic code has. A code missing here has none. */
const FIXES: Partial<Record<DiagnosticCode, (input: FixInput) => QuickFix[]>> = {
  malformedJson: jsonFixes,
  noRoute: routeFixes,
  unknownTenant: tenantFixes,
  credentialHeader: headerFixes,
  unknownVariable: variableFixes,
  unknownMethod: methodFixes,
  missingSeparator: separatorFixes,
  curlCommand: curlFixes,
};

export function quickFixesFor(text: string, file: ParsedFile, at: DiagnosticAt): QuickFix[] {
  const make = FIXES[at.code as DiagnosticCode];
  if (!make) return [];
  const lines = splitLines(text);
  if (at.line >= lines.length) return [];
  const request = file.requests.find((candidate) => candidate.startLine <= at.line && at.line <= candidate.endLine);
  return make({ lines, file, at, request });
}

function jsonFixes({ lines, at, request }: FixInput): QuickFix[] {
  const fixes: QuickFix[] = [
    {
      kind: 'reveal',
      title: l10n.t('Show where the JSON breaks (line {0}, column {1})', at.line + 1, at.start + 1),
      range: { line: at.line, start: at.start, endLine: at.line, end: at.end },
    },
  ];
  const body = request?.body;
  if (body?.kind !== 'inline') return fixes;
  const repaired = formatJsonBody(withoutTrailingCommas(body.text));
  if (repaired !== undefined) {
    const range = { line: body.startLine, start: 0, endLine: body.endLine, end: lines[body.endLine].length };
    fixes.unshift({ kind: 'edit', title: l10n.t('Remove the trailing commas and format the body'), changes: [{ range, newText: repaired }], preferred: true });
  }
  return fixes;
}

function routeFixes({ request }: FixInput): QuickFix[] {
  if (!request) return [];
  const path = request.url.split('?')[0];
  const prefix = proposeRule(path)?.prefix;
  if (!prefix) return [];
  return [{ kind: 'addRoute', title: l10n.t('Add a route rule for {0} to tenantApi.routes…', prefix), path, prefix, preferred: true }];
}

const TENANT_METADATA = /^(\s*(?:#|\/\/)\s*@tenant\s+)(.*?)\s*$/i;
const TENANT_VARIABLE = /^(\s*@tenant\s*=\s*)(.*?)\s*$/;

function tenantFixes({ lines, at, request }: FixInput): QuickFix[] {
  const title = l10n.t('Pick one of your tenants…');
  const text = lines[at.line];
  const written = TENANT_METADATA.exec(text) ?? TENANT_VARIABLE.exec(text);
  if (written) {
    const start = written[1].length;
    return [{ kind: 'pickTenant', title, range: { line: at.line, start, endLine: at.line, end: start + written[2].length }, before: '', after: '', preferred: true }];
  }
  if (!request) return [];
  const line = request.requestLine;
  return [{ kind: 'pickTenant', title, range: { line, start: 0, endLine: line, end: 0 }, before: '# @tenant ', after: '\n', preferred: true }];
}

function headerFixes({ lines, at }: FixInput): QuickFix[] {
  const name = lines[at.line].split(':')[0].trim();
  // The line and its line break; the last line of a file takes the break before it.
  const range =
    at.line + 1 < lines.length
      ? { line: at.line, start: 0, endLine: at.line + 1, end: 0 }
      : { line: Math.max(0, at.line - 1), start: at.line > 0 ? lines[at.line - 1].length : 0, endLine: at.line, end: lines[at.line].length };
  return [{ kind: 'edit', title: l10n.t('Remove the header {0}', name), changes: [{ range, newText: '' }], preferred: true }];
}

function variableFixes({ lines, at, request }: FixInput): QuickFix[] {
  const written = /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(lines[at.line].slice(at.start, at.end));
  if (!written) return [];
  const reference = classifyReference(written[1]);
  if (reference.kind !== 'name') return [];
  // Above the request, so it is defined before anything of the request uses it.
  const line = request?.startLine ?? at.line;
  const definition = `@${reference.name} = `;
  return [
    {
      kind: 'edit',
      title: l10n.t('Define the variable {0} above the request', reference.name),
      changes: [{ range: { line, start: 0, endLine: line, end: 0 }, newText: `${definition}\n` }],
      cursor: { line, character: definition.length },
      preferred: true,
    },
  ];
}

function methodFixes({ lines, at }: FixInput): QuickFix[] {
  const written = lines[at.line].slice(at.start, at.end);
  const method = closestMethod(written);
  if (!method) return [];
  return [{ kind: 'edit', title: l10n.t('Change {0} to {1}', written, method), changes: [{ range: { line: at.line, start: at.start, endLine: at.line, end: at.end }, newText: method }], preferred: true }];
}

/** The command (its continuation lines too) replaced by the request it sends; what it dropped is said. */
function curlFixes({ lines, at }: FixInput): QuickFix[] {
  const end = commandExtent(lines, at.line);
  let converted: ReturnType<typeof curlAsRequestText>;
  try {
    converted = curlAsRequestText(lines.slice(at.line, end + 1).join('\n'));
  } catch {
    return [];
  }
  const range = { line: at.line, start: 0, endLine: end, end: lines[end].length };
  const notes = converted.notes.map((note) => note.message);
  return [{ kind: 'edit', title: l10n.t('Convert the cURL command to a request'), changes: [{ range, newText: converted.text }], ...(notes.length > 0 ? { notes } : {}), preferred: true }];
}

/** The ### line goes above the request's comments and variables (they belong to it). */
function separatorFixes({ file, at }: FixInput): QuickFix[] {
  const request = file.requests.find((candidate) => candidate.requestLine === at.line);
  const line = request?.startLine ?? at.line;
  return [{ kind: 'edit', title: l10n.t('Insert ### above this request'), changes: [{ range: { line, start: 0, endLine: line, end: 0 }, newText: '###\n' }], preferred: true }];
}

/** The text without commas that close nothing but `]` or `}` (outside strings). */
export function withoutTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') {
        out += char + (text[i + 1] ?? '');
        i++;
        continue;
      }
      if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === ',' && /^\s*[\]}]/.test(text.slice(i + 1, i + 200))) {
      continue;
    }
    out += char;
  }
  return out;
}
