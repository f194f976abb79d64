/**
 * Postman collections (v2.0 and v2.1) and Postman environment exports in. A collection becomes request
 * files: its own requests in `<collection>.http`, each folder's in `<collection>/<folder>.http`, each
 * request under `### <its name>`. Collection variables go into `http-client.env.json`'s `$shared` (an
 * environment's values win over them, as in Postman); an environment export becomes an environment
 * of that file. Secret values go into `http-client.private.env.json`. Auth blocks and credential
 * headers are dropped, scripts never run: the notes name each. No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import { jsonProblem } from '../../common/jsonProblem';
import {
  PRIVATE_ENVIRONMENT_FILE,
  PUBLIC_ENVIRONMENT_FILE,
  SHARED_ENVIRONMENT,
  writeEnvironmentFile,
  type EnvironmentFileContent,
} from '../../settings/environmentFiles';
import { looksSecret } from '../variables';
import { readPostmanRequest, type PostmanRequest } from './postmanRequest';
import { onlyStatusChecks, scriptText, type PostmanEvent } from './postmanScripts';
import { writeRequestFile, type DraftRequest } from './requestText';
import { ImportError, type ImportedFile, type Importer, type ImportInput, type ImportNote, type ImportResult } from './types';

interface PostmanVariable {
  key?: string;
  id?: string;
  value?: unknown;
  disabled?: boolean;
  enabled?: boolean;
  type?: string;
}

interface PostmanItem {
  name?: string;
  description?: unknown;
  item?: PostmanItem[];
  request?: PostmanRequest | string;
  event?: PostmanEvent[];
  auth?: { type?: string };
}

interface Collection extends PostmanItem {
  info?: { name?: string; schema?: string; description?: unknown };
  variable?: PostmanVariable[];
}

interface Environment {
  name?: string;
  values?: PostmanVariable[];
  _postman_variable_scope?: string;
}

interface Folder {
  /** Folder names from the collection down. */
  path: string[];
  requests: DraftRequest[];
}

function parse(input: ImportInput): unknown {
  const name = input.source ?? l10n.t('standard input');
  const problem = jsonProblem(input.text.replace(/^\uFEFF/, ''));
  if (problem) throw new ImportError(l10n.t('{0}: line {1}, column {2}: {3}', name, problem.line + 1, problem.column + 1, problem.message));
  return JSON.parse(input.text.replace(/^\uFEFF/, ''));
}

const isEnvironment = (value: unknown): value is Environment =>
  typeof value === 'object' && value !== null && Array.isArray((value as Environment).values) && !('item' in value);

function isCollection(value: unknown): value is Collection {
  return typeof value === 'object' && value !== null && Array.isArray((value as Collection).item) && typeof (value as Collection).info === 'object';
}

/** A name fit for a file or folder: no separators or characters Windows refuses, at most 80 characters. */
export function fileNameOf(name: string): string {
  const clean = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-').replace(/^[\s.]+|[\s.]+$/g, '').slice(0, 80).trim();
  return clean || 'requests';
}

function description(value: unknown): string[] {
  const text = typeof value === 'string' ? value : typeof value === 'object' && value !== null && typeof (value as { content?: unknown }).content === 'string' ? (value as { content: string }).content : '';
  return text.split(/\r?\n\s*\r?\n/)[0].split(/\r?\n/).map((line) => line.trim()).filter(Boolean).slice(0, 3);
}

class CollectionReader {
  readonly folders: Folder[] = [];
  readonly notes: ImportNote[] = [];
  requests = 0;

  read(item: PostmanItem, path: string[]): void {
    const folder: Folder = { path, requests: [] };
    this.folders.push(folder);
    this.scripts(item, path.length === 0 ? l10n.t('the collection') : l10n.t('folder "{0}"', path.join(' › ')), false);
    this.auth(item, path.length === 0 ? l10n.t('the collection') : l10n.t('folder "{0}"', path.join(' › ')));
    for (const child of item.item ?? []) {
      const name = child.name ?? l10n.t('request {0}', this.requests + 1);
      if (Array.isArray(child.item)) this.read(child, [...path, name]);
      else if (child.request !== undefined) folder.requests.push(this.request(child, name, path));
    }
  }

  private request(item: PostmanItem, name: string, path: string[]): DraftRequest {
    this.requests++;
    const where = l10n.t('item "{0}"', [...path, name].join(' › '));
    this.auth(item, where);
    const request = readPostmanRequest(item.request!, where, this.notes);
    const assertions = this.scripts(item, where, true);
    return { ...request, name, comments: description(item.description ?? (typeof item.request === 'object' ? item.request.description : undefined)), assertions };
  }

  private auth(item: PostmanItem, where: string): void {
    const auth = item.auth ?? (typeof item.request === 'object' ? item.request.auth : undefined);
    if (auth?.type && auth.type !== 'noauth' && auth.type !== 'inherit') {
      this.notes.push({ where, message: l10n.t('The {0} auth was dropped: the extension signs in and adds the token and licence key itself.', auth.type) });
    }
  }

  /** Each script named (never run); a test that only checks the status becomes assertions, which are returned. */
  private scripts(item: PostmanItem, where: string, isRequest: boolean): string[] {
    const assertions: string[] = [];
    for (const event of item.event ?? []) {
      const text = scriptText(event);
      if (text === '' || event.disabled || event.script?.disabled) continue;
      const statuses = isRequest && event.listen === 'test' ? onlyStatusChecks(text) : undefined;
      if (statuses) {
        assertions.push(...statuses.map((status) => `status == ${status}`));
        continue;
      }
      const kind = event.listen === 'test' ? l10n.t('test script') : l10n.t('pre-request script');
      const first = text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
      this.notes.push({ where, message: l10n.t('The {0} was not imported (scripts are never run): {1}', kind, first.length > 70 ? `${first.slice(0, 70)}…` : first) });
    }
    return assertions;
  }
}

/** Variables as environment-file values: enabled ones, secrets (a secret type, or a secret-looking name) apart. */
function splitVariables(variables: readonly PostmanVariable[]): { plain: Record<string, string>; secret: Record<string, string> } {
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const variable of variables) {
    const key = variable.key ?? variable.id;
    if (!key || variable.disabled === true || variable.enabled === false) continue;
    const value = typeof variable.value === 'string' ? variable.value : variable.value === undefined || variable.value === null ? '' : JSON.stringify(variable.value);
    if (variable.type === 'secret' || looksSecret(key)) secret[key] = value;
    else plain[key] = value;
  }
  return { plain, secret };
}

function environmentFiles(environment: string, variables: readonly PostmanVariable[], notes: ImportNote[]): ImportedFile[] {
  const { plain, secret } = splitVariables(variables);
  const files: ImportedFile[] = [];
  if (Object.keys(plain).length > 0) files.push({ path: PUBLIC_ENVIRONMENT_FILE, text: writeEnvironmentFile({ [environment]: plain } as EnvironmentFileContent), requests: 0 });
  if (Object.keys(secret).length > 0) {
    files.push({ path: PRIVATE_ENVIRONMENT_FILE, text: writeEnvironmentFile({ [environment]: secret }), requests: 0 });
    notes.push({ message: l10n.t('{0} holds secret values ({1}): keep it out of version control (add it to .gitignore).', PRIVATE_ENVIRONMENT_FILE, Object.keys(secret).join(', ')) });
  }
  return files;
}

function readCollection(collection: Collection): ImportResult {
  const schema = collection.info?.schema ?? '';
  if (/v1\.0\.0/.test(schema)) throw new ImportError(l10n.t('Postman collections v1 are not supported: export the collection as v2.1 in Postman.'));
  const reader = new CollectionReader();
  reader.read(collection, []);
  if (reader.requests === 0) throw new ImportError(l10n.t('The Postman collection "{0}" holds no request to import.', collection.info?.name ?? ''));
  const title = collection.info?.name?.trim() || l10n.t('Postman collection');
  const root = fileNameOf(title);
  const used = new Set<string>();
  const files: ImportedFile[] = [];
  for (const folder of reader.folders.filter((candidate) => candidate.requests.length > 0)) {
    const base = folder.path.length === 0 ? root : [root, ...folder.path.map(fileNameOf)].join('/');
    let file = `${base}.http`;
    for (let n = 2; used.has(file.toLowerCase()); n++) file = `${base} (${n}).http`;
    used.add(file.toLowerCase());
    const heading = [l10n.t('Imported from the Postman collection "{0}"{1}.', title, folder.path.length > 0 ? ` › ${folder.path.join(' › ')}` : '')];
    files.push({ path: file, text: writeRequestFile(folder.requests, heading), requests: folder.requests.length });
  }
  return { format: 'postman', files: [...files, ...environmentFiles(SHARED_ENVIRONMENT, collection.variable ?? [], reader.notes)], notes: reader.notes };
}

export const postmanImporter: Importer = {
  format: 'postman',
  detects: (text) => /^\s*\{/.test(text) && (/schema\.getpostman\.com|"_postman_variable_scope"|"_postman_id"/.test(text.slice(0, 4000)) || (/"info"\s*:/.test(text) && /"item"\s*:/.test(text))),
  async read(input: ImportInput): Promise<ImportResult> {
    const value = parse(input);
    if (isCollection(value)) return readCollection(value);
    if (isEnvironment(value)) {
      const name = value.name?.trim() || 'postman';
      const notes: ImportNote[] = [];
      const files = environmentFiles(name, value.values ?? [], notes);
      notes.unshift({ message: l10n.t('The Postman environment "{0}" adds its variables to the extension\'s environment of the same name.', name) });
      return { format: 'postman', files, notes };
    }
    throw new ImportError(l10n.t('{0} is neither a Postman collection (v2.0 or v2.1, with "info" and "item") nor a Postman environment (with "values").', input.source ?? l10n.t('standard input')));
  },
};
