/**
 * Checks one assertion against a response: the subject's value, the expected text read as that
 * value's type (so `status == 200` compares numbers and `body == {"a":1}` compares objects), and a
 * result that says both sides. No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import type { Assertion } from './assertionLine';
import { asText, convertExpected } from './operators';
import type { AssertedResponse } from './subjects';

export interface AssertionResult {
  line: number;
  /** The assertion as written. */
  text: string;
  passed: boolean;
  /** The value found, as text ("missing" when nothing was found). */
  actual: string;
  /** The expected value after variables were filled, as text ('' for operators that take none). */
  expected: string;
  /**
   * One line for a test result: the check when it passed; which value, what was expected and what was
   * found when it failed (`body $.dimensionePagina: expected 2, found 1`), or why it could not be read.
   */
  message: string;
}

/** What an assertion names: `status`, `header content-type`, `body $.items[0].id`. */
function subjectLabel(assertion: Assertion): string {
  return assertion.argument ? `${assertion.subject.name} ${assertion.argument}` : assertion.subject.name;
}

function shown(value: unknown): string {
  return value === undefined ? l10n.t('missing') : asText(value);
}

/**
 * @param expectedText the expected value with its variables filled (defaults to the text as written).
 */
export function evaluateAssertion(assertion: Assertion, response: AssertedResponse, expectedText = assertion.expected): AssertionResult {
  const label = subjectLabel(assertion);
  const expected = expectedText ?? '';
  const base = { line: assertion.line, text: assertion.text, expected };
  if (assertion.subject.verdict) return { ...base, ...assertion.subject.verdict(response) };
  const reading = assertion.subject.read(response, assertion.argument);
  if (!reading.ok) {
    return { ...base, passed: false, actual: l10n.t('unreadable'), message: l10n.t('{0}: {1}', label, reading.reason) };
  }
  const { value } = reading;
  const operator = assertion.operator;
  const compared = operator.takesExpected && operator.converts ? convertExpected(value, expected) : expected;
  let passed: boolean;
  try {
    passed = operator.test(value, compared);
  } catch (error) {
    return { ...base, passed: false, actual: shown(value), message: l10n.t('{0}: {1}', label, (error as Error).message) };
  }
  const actual = shown(value);
  if (passed) return { ...base, passed, actual, message: `${label} ${operator.name}${operator.takesExpected ? ` ${expected}` : ''}` };
  // `==` needs no word of its own; any other operator is part of what was expected (`< 400`, `exists`).
  const wanted = operator.name === '==' ? expected : `${operator.name}${operator.takesExpected ? ` ${expected}` : ''}`;
  return { ...base, passed, actual, message: l10n.t('{0}: expected {1}, found {2}', label, wanted, actual) };
}
