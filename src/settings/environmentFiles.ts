/**
 * The environment files other clients keep beside request files: `http-client.env.json` and
 * `http-client.private.env.json` (the JetBrains client's format, which httpYac and Kulala share: an
 * object of environments, each an object of variables, `$shared` for every environment) and `.env`
 * (REST Client's `{{$dotenv NAME}}`). Reading and writing their text: pure, no `vscode`, no files.
 */
import * as l10n from '../common/l10n';
import { jsonProblem } from '../common/jsonProblem';

export const PUBLIC_ENVIRONMENT_FILE = 'http-client.env.json';
export const PRIVATE_ENVIRONMENT_FILE = 'http-client.private.env.json';
export const DOTENV_FILE = '.env';
/** The environment whose variables every environment of the file has (its own win). */
export const SHARED_ENVIRONMENT = '$shared';

/** Environment name → variable name → value. */
export type EnvironmentFileContent = Record<string, Record<string, string>>;

/** A file that cannot be read: the sentence names the file and the place (`http-client.env.json:3:14: ...`). */
export class EnvironmentFileError extends Error {}

/**
 * The environments of a file's text. Numbers and true/false become text; an object value (the
 * JetBrains client's SSL and Security settings) is not a variable and is skipped.
 */
export function parseEnvironmentFile(text: string, shownAs: string): EnvironmentFileContent {
  const clean = text.replace(/^\uFEFF/, '');
  if (clean.trim() === '') return {};
  const problem = jsonProblem(clean);
  if (problem) throw new EnvironmentFileError(l10n.t('{0}:{1}:{2}: {3}', shownAs, problem.line + 1, problem.column + 1, problem.message));
  const parsed: unknown = JSON.parse(clean);
  if (!isObject(parsed)) throw new EnvironmentFileError(l10n.t('{0}: an environment file is an object of environments ({ "dev": { "name": "value" } }).', shownAs));
  const environments: EnvironmentFileContent = {};
  for (const [name, variables] of Object.entries(parsed)) {
    if (!isObject(variables)) throw new EnvironmentFileError(l10n.t('{0}: the environment "{1}" is not an object of variables.', shownAs, name));
    environments[name] = {};
    for (const [variable, value] of Object.entries(variables)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') environments[name][variable] = String(value);
    }
  }
  return environments;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `.env` lines `NAME=value` (`export NAME=value`, quotes, `#` comments), as dotenv reads them. */
export function parseDotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const pattern = /^[ \t]*(?:export[ \t]+)?([\w.-]+)[ \t]*=[ \t]*('[^']*'|"(?:[^"\\]|\\.)*"|`[^`]*`|[^\n]*?)[ \t]*(?:#[^\n]*)?$/gm;
  for (const match of text.replace(/\r\n?/g, '\n').matchAll(pattern)) {
    let value = match[2];
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
    }
    values[match[1]] = value;
  }
  return values;
}

export function writeEnvironmentFile(content: EnvironmentFileContent): string {
  return `${JSON.stringify(content, null, 2)}\n`;
}

/** An existing file with imported environments added: an environment the import brings replaces its variables of the same name; the rest stays. */
export function mergeEnvironmentFiles(existing: string, imported: string, shownAs: string): string {
  const merged = parseEnvironmentFile(existing, shownAs);
  for (const [name, variables] of Object.entries(parseEnvironmentFile(imported, shownAs))) merged[name] = { ...merged[name], ...variables };
  return writeEnvironmentFile(merged);
}

/** Whether a file name is one of the environment files. */
export function isEnvironmentFileName(name: string): boolean {
  return name === PUBLIC_ENVIRONMENT_FILE || name === PRIVATE_ENVIRONMENT_FILE || name === DOTENV_FILE;
}
