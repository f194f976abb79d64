/**
 * Checks a body against a schema of the description by its pointer: Ajv with the dialect of the
 * description's version (draft 04 with `nullable` for Swagger 2.0 and OpenAPI 3.0, 2020-12 for 3.1),
 * the formats of ajv-formats and OpenAPI's own. Validators are compiled on first use and kept.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { jsonPathOf } from './pointers';
import type { CatalogueDocument, SchemaViolation } from './types';

const DOCUMENT_ID = 'tenant-api-description';
/** One answer breaks a schema in many places when a list is wrong: the first few say enough. */
export const MAX_VIOLATIONS = 5;

const INT32 = { type: 'number' as const, validate: (value: number) => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31 };
const INTEGER = { type: 'number' as const, validate: (value: number) => Number.isInteger(value) };
const ANY = { type: 'number' as const, validate: () => true };
const ANY_TEXT = { type: 'string' as const, validate: () => true };

function createAjv(version: CatalogueDocument['version']) {
  const options = { strict: false, allErrors: true, logger: false as const, unicodeRegExp: false, validateSchema: false, discriminator: false };
  const ajv = version === '3.1' ? new Ajv2020(options) : new Ajv04(options);
  addFormats(ajv as never);
  ajv.addFormat('int32', INT32);
  ajv.addFormat('int64', INTEGER);
  ajv.addFormat('float', ANY);
  ajv.addFormat('double', ANY);
  for (const name of ['byte', 'binary', 'password']) ajv.addFormat(name, ANY_TEXT);
  return ajv;
}

function violationOf(error: ErrorObject): SchemaViolation {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
    const name = String(params.additionalProperty ?? params.unevaluatedProperty ?? '');
    const pointer = `${error.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return { pointer, path: jsonPathOf(pointer), rule: error.keyword, message: 'is not a documented property' };
  }
  const allowed = error.keyword === 'enum' && Array.isArray(params.allowedValues) ? `: ${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}` : '';
  return { pointer: error.instancePath, path: jsonPathOf(error.instancePath), rule: error.keyword, message: `${error.message ?? error.keyword}${allowed}` };
}

/** The violations worth naming: a branch's own errors before the anyOf/oneOf that sums them up, each place and rule once. */
export function violationsOf(errors: readonly ErrorObject[]): SchemaViolation[] {
  const summaries = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not']);
  const ordered = [...errors.filter((error) => !summaries.has(error.keyword)), ...errors.filter((error) => summaries.has(error.keyword))];
  const seen = new Set<string>();
  const out: SchemaViolation[] = [];
  for (const error of ordered) {
    const violation = violationOf(error);
    const key = `${violation.pointer} ${violation.rule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(violation);
    if (out.length === MAX_VIOLATIONS) break;
  }
  return out;
}

export class SchemaChecker {
  private readonly ajv: ReturnType<typeof createAjv>;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: Record<string, unknown>, version: CatalogueDocument['version']) {
    this.ajv = createAjv(version);
    this.ajv.addSchema(document as AnySchema, DOCUMENT_ID);
  }

  /** The places `value` breaks the schema at `pointer` ([] when it matches); throws when the schema itself cannot be compiled. */
  check(pointer: string, value: unknown): SchemaViolation[] {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
      this.validators.set(pointer, validate);
    }
    return validate(value) ? [] : violationsOf(validate.errors ?? []);
  }
}
