/**
 * The comparison operators of assertion lines (`?? status == 200`), as one table: httpYac's names, so a
 * file with assertions also runs in httpYac. Where our rule differs from httpYac's, the row says why
 * (the README lists the differences). No `vscode` here.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import * as l10n from '../../common/l10n';

export interface AssertionOperator {
  /** The name shown in results and completions (the first of `ids`). */
  name: string;
  /** Every spelling httpYac accepts, matched without regard to case. */
  ids: readonly string[];
  /** Whether a value follows the operator (`== 200`) or not (`exists`). */
  takesExpected: boolean;
  /** Whether the expected text is converted to the actual value's type first (httpYac's convertToType). */
  converts: boolean;
  /** One line for hover and completion. */
  describe: () => string;
  /** Where httpYac's rule differs (hover and completion say it; the README lists them). */
  differs?: () => string;
  test: (actual: unknown, expected: unknown) => boolean;
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    return Number.isFinite(number) ? number : undefined;
  }
  return undefined;
}

/** httpYac's `>` is false whenever either side is 0 (it tests the numbers for truthiness); ours compares them. */
function compare(test: (a: number, b: number) => boolean) {
  return (actual: unknown, expected: unknown): boolean => {
    const a = asNumber(actual);
    const b = asNumber(expected);
    return a !== undefined && b !== undefined && test(a, b);
  };
}

export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

/** httpYac compares objects by their JSON text (key order counts); ours ignores key order. */
function equals(actual: unknown, expected: unknown): boolean {
  return isDeepStrictEqual(actual, expected);
}

function includes(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual)) return actual.some((item) => equals(item, expected) || asText(item) === asText(expected));
  return asText(actual).includes(asText(expected));
}

function digest(algorithm: string) {
  return (actual: unknown, expected: unknown): boolean =>
    createHash(algorithm).update(asText(actual)).digest('base64') === asText(expected);
}

const KEY_ORDER = () => l10n.t('httpYac compares objects and lists by their JSON text, so key order counts there; here it does not.');
const ZERO = () => l10n.t("httpYac's comparison is false whenever either side is 0; here the two numbers are compared.");

export const OPERATORS: readonly AssertionOperator[] = [
  { name: '==', ids: ['==', '===', 'equals'], takesExpected: true, converts: true, describe: () => l10n.t('equals the expected value'), differs: KEY_ORDER, test: equals },
  { name: '!=', ids: ['!=', '!==', 'not equals'], takesExpected: true, converts: true, describe: () => l10n.t('differs from the expected value'), differs: KEY_ORDER, test: (a, e) => !equals(a, e) },
  { name: '>=', ids: ['>='], takesExpected: true, converts: true, describe: () => l10n.t('is a number greater than or equal to the expected one'), differs: ZERO, test: compare((a, b) => a >= b) },
  { name: '<=', ids: ['<='], takesExpected: true, converts: true, describe: () => l10n.t('is a number less than or equal to the expected one'), differs: ZERO, test: compare((a, b) => a <= b) },
  { name: '>', ids: ['>'], takesExpected: true, converts: true, describe: () => l10n.t('is a number greater than the expected one'), differs: ZERO, test: compare((a, b) => a > b) },
  { name: '<', ids: ['<'], takesExpected: true, converts: true, describe: () => l10n.t('is a number less than the expected one'), differs: ZERO, test: compare((a, b) => a < b) },
  { name: 'startsWith', ids: ['startsWith'], takesExpected: true, converts: false, describe: () => l10n.t('starts with the expected text'), test: (a, e) => asText(a).startsWith(asText(e)) },
  { name: 'endsWith', ids: ['endsWith'], takesExpected: true, converts: false, describe: () => l10n.t('ends with the expected text'), test: (a, e) => asText(a).endsWith(asText(e)) },
  { name: 'includes', ids: ['includes', 'contains'], takesExpected: true, converts: false, describe: () => l10n.t('contains the expected text (or, for a list, the expected item)'), test: includes },
  { name: 'matches', ids: ['matches'], takesExpected: true, converts: false, describe: () => l10n.t('matches the expected regular expression'), test: (a, e) => new RegExp(asText(e), 'u').test(asText(a)) },
  // httpYac's `exists` is true only for a truthy value (a count of 0 "does not exist"); ours is true for any value found.
  { name: 'exists', ids: ['exists'], takesExpected: false, converts: false, describe: () => l10n.t('is present (any value, 0 and false included)'), differs: () => l10n.t('httpYac counts 0, false and an empty text as missing; here any value found exists.'), test: (a) => a !== undefined },
  { name: 'isTrue', ids: ['isTrue'], takesExpected: false, converts: false, describe: () => l10n.t('is truthy'), test: (a) => Boolean(a) },
  { name: 'isFalse', ids: ['isFalse'], takesExpected: false, converts: false, describe: () => l10n.t('is falsy or missing'), test: (a) => !a },
  { name: 'isNumber', ids: ['isNumber'], takesExpected: false, converts: false, describe: () => l10n.t('is a number'), test: (a) => typeof a === 'number' },
  { name: 'isString', ids: ['isString'], takesExpected: false, converts: false, describe: () => l10n.t('is a string'), test: (a) => typeof a === 'string' },
  { name: 'isBoolean', ids: ['isBoolean'], takesExpected: false, converts: false, describe: () => l10n.t('is true or false'), test: (a) => typeof a === 'boolean' },
  { name: 'isArray', ids: ['isArray'], takesExpected: false, converts: false, describe: () => l10n.t('is a list'), test: (a) => Array.isArray(a) },
  { name: 'sha256', ids: ['sha256'], takesExpected: true, converts: false, describe: () => l10n.t('has this SHA-256 digest (base64)'), test: digest('sha256') },
  { name: 'sha512', ids: ['sha512'], takesExpected: true, converts: false, describe: () => l10n.t('has this SHA-512 digest (base64)'), test: digest('sha512') },
  { name: 'md5', ids: ['md5'], takesExpected: true, converts: false, describe: () => l10n.t('has this MD5 digest (base64)'), test: digest('md5') },
];

/** The operator of a subject that checks by itself (`?? schema`): never typed, never offered. */
export const NO_OPERATOR: AssertionOperator = { name: '', ids: [], takesExpected: false, converts: false, describe: () => '', test: () => true };

/** The operator a word names (case-insensitive, as httpYac), if any. */
export function findOperator(word: string): AssertionOperator | undefined {
  const lower = word.toLowerCase();
  return OPERATORS.find((operator) => operator.ids.some((id) => id.toLowerCase() === lower));
}

/** httpYac's convertToType: the expected text read as the actual value's type, so `status == 200` compares numbers. */
export function convertExpected(actual: unknown, expected: string): unknown {
  if (typeof actual === 'number') return asNumber(expected) ?? expected;
  if (typeof actual === 'boolean') return expected === 'true' ? true : expected === 'false' ? false : expected;
  if (actual === null) return expected === 'null' ? null : expected;
  if (typeof actual === 'object') {
    try {
      return JSON.parse(expected) as unknown;
    } catch {
      return expected;
    }
  }
  return expected;
}
