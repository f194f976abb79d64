/**
 * Checks every assertion of one request against its answer, the expected values filled from the same
 * variables the request used (`?? body $.id == {{created.response.body.$.id}}`). An expected value
 * that cannot be filled fails its assertion with the reason; nothing is thrown. No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import type { Assertion } from './assertionLine';
import { evaluateAssertion, type AssertionResult } from './evaluateAssertion';
import type { AssertedResponse } from './subjects';

/** Fills `{{...}}` in an expected value: the text, or the problems that left it unfilled. */
export type FillExpected = (text: string) => { text: string; problems: ReadonlyArray<{ message: string }> };

export function checkResponse(assertions: readonly Assertion[], response: AssertedResponse, fill: FillExpected): AssertionResult[] {
  return assertions.map((assertion) => {
    if (assertion.expected === undefined) return evaluateAssertion(assertion, response);
    const filled = fill(assertion.expected);
    if (filled.problems.length > 0) {
      const reason = filled.problems.map((problem) => problem.message).join('; ');
      return {
        line: assertion.line,
        text: assertion.text,
        passed: false,
        actual: l10n.t('not checked'),
        expected: assertion.expected,
        message: l10n.t('{0}: the expected value could not be filled: {1}', assertion.text, reason),
      };
    }
    return evaluateAssertion(assertion, response, filled.text);
  });
}

/** The passed and failed counts of a list of results. */
export function countResults(results: readonly AssertionResult[]): { passed: number; failed: number } {
  const passed = results.filter((result) => result.passed).length;
  return { passed, failed: results.length - passed };
}
