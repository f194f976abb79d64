/**
 * The operations of a description (Swagger 2.0, OpenAPI 3.0, 3.1), read into the catalogue's model:
 * their whole path (the server's or basePath's path first), parameters with the path's own merged
 * in, the JSON body and each answer's schema by pointer. Pure: no library, no I/O.
 */
import * as l10n from '../common/l10n';
import { pointerOf, resolved } from './pointers';
import { CatalogueError, type CatalogueBody, type CatalogueDocument, type CatalogueNote, type CatalogueOperation, type CatalogueParameter, type CatalogueResponse, type ParameterPlace } from './types';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const PLACES: readonly string[] = ['path', 'query', 'header', 'cookie'];
type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export function isJsonMediaType(type: string): boolean {
  return /^application\/(?:[\w.+-]*\+)?json\b/i.test(type.trim()) || type.trim() === '*/*';
}

/** Which version the document says it is; a document that says neither is not a description. */
export function versionOf(document: unknown, file?: string): CatalogueDocument['version'] {
  const found = isNode(document) ? (document.openapi ?? document.swagger) : undefined;
  const value = String(found ?? '');
  if (value === '2.0') return '2.0';
  if (/^3\.0(\.\d+)?$/.test(value)) return '3.0';
  if (/^3\.1(\.\d+)?$/.test(value)) return '3.1';
  const name = file ?? l10n.t('The description');
  if (found === undefined) throw new CatalogueError(l10n.t('{0} is not an OpenAPI or Swagger description: it has no "openapi" or "swagger" field.', name), { file });
  throw new CatalogueError(l10n.t('{0} is OpenAPI {1}: only Swagger 2.0 and OpenAPI 3.0 and 3.1 are read.', name, value), { file });
}

/** The path part of a server address (`https://h/efat/api/v1` -> `/efat/api/v1`), its variables at their defaults. */
function serverPath(servers: unknown): string {
  const server = Array.isArray(servers) && isNode(servers[0]) ? servers[0] : undefined;
  const url = text(server?.url);
  if (!url) return '';
  const variables = isNode(server?.variables) ? server.variables : {};
  const filled = url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isNode(variable) && variable.default !== undefined ? String(variable.default) : whole;
  });
  let pathPart = filled;
  try {
    pathPart = new URL(filled, 'http://server.invalid').pathname;
  } catch {
    // keep it as written
  }
  return decodeURI(pathPart).replace(/\/+$/, '');
}

function exampleOf(node: Node, document: Node): unknown {
  if (node.example !== undefined) return node.example;
  if (node['x-example'] !== undefined) return node['x-example'];
  if (isNode(node.examples)) {
    const first = Object.values(node.examples)[0];
    const example = resolved(document, first, '').value;
    if (isNode(example) && example.value !== undefined) return example.value;
  }
  return undefined;
}

function parameterOf(raw: unknown, pointer: string, document: Node): CatalogueParameter | { body: Node; pointer: string } | { form: string } | undefined {
  const found = resolved(document, raw, pointer);
  const node = found.value;
  if (!isNode(node) || typeof node.name !== 'string' || typeof node.in !== 'string') return undefined;
  if (node.in === 'body') return { body: node, pointer: found.pointer };
  if (node.in === 'formData') return { form: node.name };
  if (!PLACES.includes(node.in)) return undefined;
  const schema = isNode(node.schema) ? (resolved(document, node.schema, '').value as Node) : node;
  const example = exampleOf(node, document) ?? (isNode(schema) ? (schema.example ?? schema.default) : undefined);
  return {
    name: node.name,
    in: node.in as ParameterPlace,
    required: node.in === 'path' || node.required === true,
    description: text(node.description),
    ...(example !== undefined ? { example } : {}),
    ...(isNode(schema) && typeof schema.type === 'string' ? { type: schema.type } : {}),
  };
}

/** A 3.x requestBody: its JSON media type when it has one, else the first it documents. */
function requestBodyOf(raw: unknown, pointer: string, document: Node): CatalogueBody | undefined {
  const found = resolved(document, raw, pointer);
  const node = found.value;
  if (!isNode(node) || !isNode(node.content)) return undefined;
  const types = Object.keys(node.content);
  const mediaType = types.find(isJsonMediaType) ?? types[0];
  if (!mediaType) return undefined;
  const media = node.content[mediaType];
  const json = isJsonMediaType(mediaType);
  return {
    required: node.required === true,
    mediaType: json && mediaType === '*/*' ? 'application/json' : mediaType,
    json,
    description: text(node.description),
    ...(isNode(media) && media.schema !== undefined ? { schemaPointer: `${found.pointer}${pointerOf(['content', mediaType, 'schema'])}` } : {}),
    ...(isNode(media) && exampleOf(media, document) !== undefined ? { example: exampleOf(media, document) } : {}),
  };
}

function responsesOf(raw: unknown, pointer: string, document: Node, version: CatalogueDocument['version']): CatalogueResponse[] {
  if (!isNode(raw)) return [];
  return Object.entries(raw).flatMap(([status, value]): CatalogueResponse[] => {
    if (!/^([1-5](\d\d|XX)|default)$/i.test(status)) return [];
    const found = resolved(document, value, `${pointer}${pointerOf([status])}`);
    const node = found.value;
    if (!isNode(node)) return [{ status: status.toUpperCase() }];
    let schemaPointer: string | undefined;
    if (version === '2.0') {
      if (node.schema !== undefined) schemaPointer = `${found.pointer}/schema`;
    } else if (isNode(node.content)) {
      const mediaType = Object.keys(node.content).find(isJsonMediaType);
      const media = mediaType ? node.content[mediaType] : undefined;
      if (mediaType && isNode(media) && media.schema !== undefined) schemaPointer = `${found.pointer}${pointerOf(['content', mediaType, 'schema'])}`;
    }
    return [{ status: status.toUpperCase(), description: text(node.description), ...(schemaPointer ? { schemaPointer } : {}) }];
  });
}

interface OperationSite {
  document: Node;
  version: CatalogueDocument['version'];
  prefix: string;
  documentedPath: string;
  method: string;
  pathItem: Node;
  operation: Node;
  pointer: string;
}

/** A 2.0 body parameter or form fields as the catalogue's body. */
function swaggerBody(site: OperationSite, body: { body: Node; pointer: string } | undefined, form: string[]): CatalogueBody | undefined {
  const consumes = (Array.isArray(site.operation.consumes) ? site.operation.consumes : Array.isArray(site.document.consumes) ? site.document.consumes : []) as string[];
  if (form.length > 0) {
    const mediaType = consumes.find((type) => /form/i.test(type)) ?? 'application/x-www-form-urlencoded';
    return { required: true, mediaType, json: false, description: l10n.t('Form fields: {0}', form.join(', ')) };
  }
  if (!body) return undefined;
  const mediaType = consumes.find(isJsonMediaType) ?? consumes[0] ?? 'application/json';
  const example = exampleOf(body.body, site.document);
  return {
    required: body.body.required === true,
    mediaType,
    json: isJsonMediaType(mediaType),
    description: text(body.body.description),
    ...(body.body.schema !== undefined ? { schemaPointer: `${body.pointer}/schema` } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

function operationOf(site: OperationSite): CatalogueOperation {
  const { document, operation, pathItem, pointer, version } = site;
  const parameters = new Map<string, CatalogueParameter>();
  let body: { body: Node; pointer: string } | undefined;
  const form: string[] = [];
  const pathPointer = pointer.slice(0, pointer.lastIndexOf('/'));
  const lists: Array<[unknown, string]> = [[pathItem.parameters, `${pathPointer}/parameters`], [operation.parameters, `${pointer}/parameters`]];
  for (const [list, listPointer] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw, index) => {
      const read = parameterOf(raw, `${listPointer}/${index}`, document);
      if (!read) return;
      if ('body' in read) body = read;
      else if ('form' in read) form.push(read.form);
      else parameters.set(`${read.in} ${read.name}`, read);
    });
  }
  const servers = operation.servers ?? pathItem.servers ?? document.servers;
  const path = `${version === '2.0' ? site.prefix : serverPath(servers)}${site.documentedPath}`;
  const tags = Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string' && tag.trim() !== '') : [];
  const method = site.method.toUpperCase();
  return {
    key: `${method} ${path}`,
    method,
    path,
    ...(text(operation.operationId) ? { operationId: text(operation.operationId) } : {}),
    ...(text(operation.summary) ? { summary: text(operation.summary) } : {}),
    ...(text(operation.description) ? { description: text(operation.description) } : {}),
    group: tags[0]?.trim() ?? site.documentedPath.split('/').filter(Boolean)[0] ?? '/',
    deprecated: operation.deprecated === true,
    parameters: [...parameters.values()],
    ...(version === '2.0' ? optional('body', swaggerBody(site, body, form)) : optional('body', requestBodyOf(operation.requestBody, `${pointer}/requestBody`, document))),
    responses: responsesOf(operation.responses, `${pointer}/responses`, document, version),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/**
 * Reads the operations of one documented path at a time (so a large description can be read in
 * turns that leave the event loop free); an operation that cannot be read is a note, not a failure.
 */
export function operationReader(document: Node, version: CatalogueDocument['version'], notes: CatalogueNote[]) {
  const paths = document.paths;
  if (paths !== undefined && !isNode(paths)) throw new CatalogueError(l10n.t('The description\'s "paths" is not an object.'));
  const prefix = version === '2.0' ? (text(document.basePath) ?? '').replace(/\/+$/, '') : '';
  const operations: CatalogueOperation[] = [];
  const seen = new Set<string>();
  const read = (documentedPath: string) => {
    const item = resolved(document, (paths as Node)[documentedPath], pointerOf(['paths', documentedPath]));
    if (!documentedPath.startsWith('/') || !isNode(item.value)) {
      notes.push({ message: l10n.t('The path {0} is not read: it does not start with "/" or is not an object.', documentedPath) });
      return;
    }
    const pathItem = item.value;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isNode(operation)) continue;
      const found = operationOf({ document, version, prefix, documentedPath, method, pathItem, operation, pointer: `${item.pointer}/${method}` });
      if (seen.has(found.key)) continue;
      seen.add(found.key);
      operations.push(found);
    }
  };
  return { paths: Object.keys(paths ?? {}), read, operations };
}

/** Every operation of the document, in its order, at once. */
export function readOperations(document: Node, version: CatalogueDocument['version'], notes: CatalogueNote[]): CatalogueOperation[] {
  const reader = operationReader(document, version, notes);
  reader.paths.forEach(reader.read);
  return reader.operations;
}

export function titleOf(document: Node): { title: string; apiVersion?: string } {
  const info = isNode(document.info) ? document.info : {};
  return { title: text(info.title) ?? l10n.t('Untitled API'), ...(text(info.version) ? { apiVersion: text(info.version) } : {}) };
}
