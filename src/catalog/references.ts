/**
 * A description's `$ref`s: local ones stay as they are (circular ones included: schemas are read by
 * pointer, never expanded), relative files are bundled in (through json-schema-ref-parser), and a
 * remote one is never fetched: it is left empty and reported.
 */
import $RefParser from '@apidevtools/json-schema-ref-parser';
import * as path from 'node:path';
import * as l10n from '../common/l10n';
import { MAX_REFERENCED_FILES } from './limits';
import { parseDescriptionText } from './parseText';
import { CatalogueError, type CatalogueNote } from './types';

/** Where a part that a remote `$ref` named is left: an empty object with the address it named. */
export const UNRESOLVED = 'x-tenant-api-unresolved';

const REMOTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

type Kind = 'local' | 'file' | 'remote';

function kindOf(ref: string, filesReadable: boolean): Kind {
  if (ref.startsWith('#')) return 'local';
  if (REMOTE.test(ref) && !/^file:/i.test(ref)) return 'remote';
  return filesReadable ? 'file' : 'remote';
}

/**
 * Replaces every remote `$ref` of `value` (in place) by an empty part naming it, notes it, and
 * says whether a file reference is left. Iterative: a 13 MB description nests deeper than a stack likes.
 */
function scrub(value: unknown, filesReadable: boolean, notes: CatalogueNote[], file: string | undefined): boolean {
  let files = false;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) {
      for (const item of current) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const node = current as Record<string, unknown>;
    if (typeof node.$ref === 'string') {
      const kind = kindOf(node.$ref, filesReadable);
      if (kind === 'remote') {
        notes.push({
          message: l10n.t('The reference {0} is not fetched (only files beside the description are read): that part is left empty.', node.$ref),
          where: file,
        });
        node[UNRESOLVED] = node.$ref;
        delete node.$ref;
      } else if (kind === 'file') files = true;
    }
    for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return files;
}

/** Every `$ref` value written in a description's text (JSON or YAML), found without walking the parsed value. */
const REF_IN_TEXT = /["']?\$ref["']?\s*:\s*["']?([^"'\s,}\]]+)/g;

/** Whether the text holds a `$ref` that is not local: only then is the parsed value walked (a 13 MB one has tens of thousands of local ones). */
export function hasOutsideReference(text: string): boolean {
  for (const match of text.matchAll(REF_IN_TEXT)) if (!match[1].startsWith('#')) return true;
  return false;
}

export interface ReferenceInput {
  /** The main file's absolute path; undefined for standard input or an address (no file beside it then). */
  file?: string;
  /** Reads a file a relative `$ref` names (absolute path); absent: no file is read. */
  readFile?(absolutePath: string): Promise<string>;
}

/** The description with its file references bundled in and its remote ones emptied; notes say what was left out. */
export async function bundleReferences(document: Record<string, unknown>, input: ReferenceInput & { text?: string; name?: string }, notes: CatalogueNote[]): Promise<Record<string, unknown>> {
  const readable = input.file !== undefined && input.readFile !== undefined;
  if (input.text !== undefined && !hasOutsideReference(input.text)) return document;
  if (!scrub(document, readable, notes, input.name ?? input.file)) return document;
  let read = 0;
  // The bundler wraps what a reader throws: the first sentence of ours is the one to tell.
  let failure: CatalogueError | undefined;
  const keep = (error: CatalogueError) => (failure ??= error);
  const files = {
    order: 1,
    canRead: true,
    read: async (found: { url: string }) => {
      if (++read > MAX_REFERENCED_FILES) throw new CatalogueError(l10n.t('The description references more than {0} files.', MAX_REFERENCED_FILES));
      const absolute = path.resolve(decodeURI(found.url.replace(/^file:\/\//i, '')));
      try {
        return await input.readFile!(absolute);
      } catch (error) {
        const shown = path.relative(path.dirname(input.file!), absolute);
        throw keep(new CatalogueError(l10n.t('{0}, referenced by the description, cannot be read: {1}', shown, (error as NodeJS.ErrnoException).code ?? String(error)), { file: shown }));
      }
    },
  };
  const parser = {
    order: 1,
    canParse: true,
    parse: (found: { url: string; data: string | Buffer }) => {
      let value: unknown;
      try {
        const shown = path.relative(path.dirname(input.file!), found.url);
        value = parseDescriptionText(found.data.toString(), shown);
        scrub(value, true, notes, shown);
      } catch (error) {
        throw error instanceof CatalogueError ? keep(error) : error;
      }
      return value;
    },
  };
  try {
    const bundled = await new $RefParser().bundle(input.file!, document as never, {
      resolve: { file: files, http: false, external: true },
      parse: { json: false, yaml: false, text: false, binary: false, description: parser },
      dereference: { circular: true },
    } as never);
    return bundled as unknown as Record<string, unknown>;
  } catch (error) {
    if (failure) throw failure;
    if (error instanceof CatalogueError) throw error;
    const cause = (error as { errors?: unknown[] }).errors?.[0] ?? error;
    if (cause instanceof CatalogueError) throw cause;
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new CatalogueError(l10n.t('A reference of the description cannot be resolved: {0}', message), { file: input.file });
  }
}
