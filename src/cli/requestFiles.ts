/**
 * The files a run names: paths, folders (their .http and .rest files) and globs (`*`, `?`, `**`,
 * for shells that do not expand them, Windows' among them), each read and parsed. A name that
 * matches nothing, or a file with a syntax error, is a usage error before anything is sent.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '../common/l10n';
import { diagnoseRequestFile, type DiagnosticCode, type DiagnosticContext } from '../engine/diagnostics';
import { requestDocument } from '../engine/documents';
import { parseRequestFile } from '../engine/parser';
import type { LoadedFile } from './fileRun';
import { UsageError } from './options';

const REQUEST_FILE = /\.(http|rest)$/i;
/** A file with these errors does not parse: nothing is sent (the other diagnostics fail their own request). */
const FATAL_CODES: ReadonlySet<DiagnosticCode> = new Set(['parse', 'assertion', 'unknownMethod', 'curlCommand']);
/** What the file says that the run will not do (a script block, a credential header), or reads otherwise than written (a missing ###). */
const WARNED_CODES: ReadonlySet<DiagnosticCode> = new Set(['script', 'credentialHeader', 'missingSeparator']);
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

export function globPattern(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (glob.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function walk(folder: string, into: string[]): void {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) walk(full, into);
    else if (entry.isFile()) into.push(full);
  }
}

function requestFilesIn(folder: string): string[] {
  const all: string[] = [];
  walk(folder, all);
  return all.filter((file) => REQUEST_FILE.test(file)).sort();
}

function expandGlob(pattern: string, cwd: string): string[] {
  const normalized = pattern.split(path.sep).join('/');
  const segments = normalized.split('/');
  const firstWild = segments.findIndex((segment) => /[*?]/.test(segment));
  const base = path.resolve(cwd, segments.slice(0, firstWild).join('/') || '.');
  if (!fs.existsSync(base)) return [];
  const matcher = globPattern(path.resolve(cwd, normalized).split(path.sep).join('/'));
  const found: string[] = [];
  walk(base, found);
  return found.filter((file) => matcher.test(file.split(path.sep).join('/')));
}

/** The files, in the order named, each once; globs and folders sorted. */
export function expandFiles(patterns: readonly string[], cwd: string): string[] {
  const files: string[] = [];
  for (const pattern of patterns) {
    let matched: string[];
    if (/[*?]/.test(pattern)) matched = expandGlob(pattern, cwd).filter((file) => REQUEST_FILE.test(file)).sort();
    else {
      const full = path.resolve(cwd, pattern);
      const stat = fs.statSync(full, { throwIfNoEntry: false });
      matched = !stat ? [] : stat.isDirectory() ? requestFilesIn(full) : [full];
    }
    if (matched.length === 0) throw new UsageError(l10n.t('No request file matches "{0}".', pattern));
    for (const file of matched) if (!files.includes(file)) files.push(file);
  }
  return files;
}

/** Reads and parses each file; throws a UsageError listing every syntax error (file:line: message); says what will not be run or sent. */
export function loadFiles(files: readonly string[], cwd: string, context: DiagnosticContext, warn: (line: string) => void = () => undefined): LoadedFile[] {
  const problems: string[] = [];
  const loaded = files.map((file) => {
    const shown = path.relative(cwd, file) || file;
    const text = fs.readFileSync(file, 'utf8');
    const parsed = parseRequestFile(text);
    for (const diagnostic of diagnoseRequestFile(text, parsed, context).sort((a, b) => a.line - b.line)) {
      const where = `${shown}:${diagnostic.line + 1}: ${diagnostic.message}`;
      if (diagnostic.severity === 'error' && FATAL_CODES.has(diagnostic.code)) problems.push(where);
      else if (WARNED_CODES.has(diagnostic.code)) warn(where);
    }
    if (parsed.requests.length === 0) problems.push(l10n.t('{0}: no request in the file', shown));
    return { file: shown, document: requestDocument(file, text, path.dirname(file)), parsed };
  });
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  return loaded;
}
