/**
 * The variables environment files give a request file, for the environment in force: the files in
 * the request file's folder and in each folder above it up to the workspace's root, the nearer
 * folder winning. Within a folder, lowest first: the public file's `$shared`, the private file's
 * `$shared`, the public file's environment, the private file's environment. Values from the private
 * file and from `.env` are secrets. A file that cannot be read is left out and said once, with its
 * place; the others still count. Read through `read`, cached until `invalidate`. No `vscode` here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Environment } from './environments';
import {
  DOTENV_FILE,
  EnvironmentFileError,
  parseDotenv,
  parseEnvironmentFile,
  PRIVATE_ENVIRONMENT_FILE,
  PUBLIC_ENVIRONMENT_FILE,
  SHARED_ENVIRONMENT,
  type EnvironmentFileContent,
} from './environmentFiles';

export interface VariableOrigin {
  /** The file the value comes from (absolute). */
  file: string;
  secret: boolean;
}

export interface FileEnvironment {
  variables: Record<string, string>;
  /** Names whose value is a secret (it came from the private file): masked wherever a request is shown. */
  secrets: ReadonlySet<string>;
  /** `.env` values, for `{{$dotenv NAME}}` (secrets, every one). */
  dotenv: Record<string, string>;
  /** Where each variable's value comes from, `.env` names as `$dotenv NAME`. */
  origins: Record<string, VariableOrigin>;
  /** One per file that could not be read. */
  problems: EnvironmentFileProblem[];
}

export interface EnvironmentFileProblem {
  /** The file (absolute). */
  file: string;
  /** The sentence, with the file as shown and the place: `http-client.env.json:3:14: ...`. */
  message: string;
}

export interface EnvironmentFilesOptions {
  /** A file's text; undefined when there is none. */
  read(file: string): string | undefined;
  /** The workspace root above a folder (the search stops there); undefined: only the folder itself. */
  rootOf(folder: string): string | undefined;
  /** How a file is named in a problem (relative to the workspace). */
  show?(file: string): string;
}

type Parsed = { ok: true; content: EnvironmentFileContent } | { ok: false; problem: EnvironmentFileProblem } | undefined;

/** A file's text, or undefined when there is none (or it is a folder). */
export function readFileIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The name an extension environment has in the files: its own, `default` for the top-level settings. */
export function fileEnvironmentName(environment: Pick<Environment, 'isDefault' | 'name'>): string {
  return environment.isDefault ? 'default' : environment.name;
}

export const EMPTY_FILE_ENVIRONMENT: FileEnvironment = { variables: {}, secrets: new Set(), dotenv: {}, origins: {}, problems: [] };

export class EnvironmentFiles {
  private readonly cache = new Map<string, Parsed | { dotenv: Record<string, string> }>();

  constructor(private readonly options: EnvironmentFilesOptions) {}

  /** Forgets what was read (a file changed, was added or removed). */
  invalidate(): void {
    this.cache.clear();
  }

  /** The variables of `environment` (an environment's name; the default one is `default`) for request files in `folder`. */
  forFolder(folder: string, environment: string): FileEnvironment {
    const result: FileEnvironment = { variables: {}, secrets: new Set<string>(), dotenv: {}, origins: {}, problems: [] };
    const secrets = result.secrets as Set<string>;
    for (const dir of this.folders(folder).reverse()) {
      for (const file of [PUBLIC_ENVIRONMENT_FILE, PRIVATE_ENVIRONMENT_FILE]) {
        const parsed = this.parsed(path.join(dir, file));
        if (parsed && !parsed.ok) result.problems.push(parsed.problem);
      }
      for (const layer of [SHARED_ENVIRONMENT, environment]) {
        for (const [file, secret] of [[PUBLIC_ENVIRONMENT_FILE, false], [PRIVATE_ENVIRONMENT_FILE, true]] as const) {
          const full = path.join(dir, file);
          const parsed = this.parsed(full);
          if (!parsed?.ok) continue;
          for (const [name, value] of Object.entries(environmentIn(parsed.content, layer) ?? {})) {
            result.variables[name] = value;
            result.origins[name] = { file: full, secret };
            if (secret) secrets.add(name);
            else secrets.delete(name);
          }
        }
      }
      const dotenvFile = path.join(dir, DOTENV_FILE);
      for (const [name, value] of Object.entries(this.dotenv(dotenvFile))) {
        result.dotenv[name] = value;
        result.origins[`$dotenv ${name}`] = { file: dotenvFile, secret: true };
      }
    }
    return result;
  }

  /** The environments the files define for `folder` (not `$shared`), as written, each once. */
  environmentNames(folder: string): string[] {
    const names = new Map<string, string>();
    for (const dir of this.folders(folder)) {
      for (const file of [PUBLIC_ENVIRONMENT_FILE, PRIVATE_ENVIRONMENT_FILE]) {
        const parsed = this.parsed(path.join(dir, file));
        if (!parsed?.ok) continue;
        for (const name of Object.keys(parsed.content)) if (name !== SHARED_ENVIRONMENT && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
      }
    }
    return [...names.values()];
  }

  /** The folder and those above it up to the root, nearest first. */
  private folders(folder: string): string[] {
    const start = path.resolve(folder);
    const root = this.options.rootOf(start);
    const relative = root === undefined ? '..' : path.relative(path.resolve(root), start);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return [start];
    const folders = [start];
    for (let dir = start; path.resolve(dir) !== path.resolve(root!); ) {
      dir = path.dirname(dir);
      folders.push(dir);
    }
    return folders;
  }

  private parsed(file: string): Parsed {
    if (this.cache.has(file)) return this.cache.get(file) as Parsed;
    const shown = this.options.show?.(file) ?? file;
    let parsed: Parsed;
    try {
      const text = this.options.read(file);
      if (text !== undefined) parsed = { ok: true, content: parseEnvironmentFile(text, shown) };
    } catch (error) {
      parsed = { ok: false, problem: { file, message: error instanceof EnvironmentFileError ? error.message : `${shown}: ${error instanceof Error ? error.message : String(error)}` } };
    }
    this.cache.set(file, parsed);
    return parsed;
  }

  private dotenv(file: string): Record<string, string> {
    const cached = this.cache.get(file) as { dotenv: Record<string, string> } | undefined;
    if (cached) return cached.dotenv;
    let text: string | undefined;
    try {
      text = this.options.read(file);
    } catch {
      text = undefined;
    }
    const dotenv = text === undefined ? {} : parseDotenv(text);
    this.cache.set(file, { dotenv });
    return dotenv;
  }
}

/** The file's environment of that name, in any case. */
function environmentIn(content: EnvironmentFileContent, name: string): Record<string, string> | undefined {
  if (content[name]) return content[name];
  const key = Object.keys(content).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : content[key];
}
