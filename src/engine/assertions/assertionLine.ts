/**
 * Reads one assertion line, `?? <subject> [argument] <operator> [expected]`, in httpYac's syntax: the
 * subject and operator tables say which words count. The first operator word after the subject (and
 * its argument) ends the argument, so an expected value may itself hold an operator word
 * (`?? body $.formula == a > b`); httpYac's regular expression takes the last one instead. A problem
 * comes back with the columns it covers, for a diagnostic. No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import { findOperator, NO_OPERATOR, OPERATORS, type AssertionOperator } from './operators';
import { findSubject, REFUSED_SUBJECTS, SUBJECTS, type AssertionSubject } from './subjects';

export interface Assertion {
  /** 0-based line in the file. */
  line: number;
  /** The line as written, trimmed: what results name. */
  text: string;
  subject: AssertionSubject;
  argument?: string;
  operator: AssertionOperator;
  /** As written: may hold `{{variables}}`, filled before the check. */
  expected?: string;
}

export interface AssertionProblem {
  line: number;
  /** Columns of the part the problem is about. */
  start: number;
  end: number;
  message: string;
}

export type AssertionLine = { ok: true; assertion: Assertion } | { ok: false; problem: AssertionProblem };

export interface Word {
  text: string;
  start: number;
  end: number;
}

const ASSERTION_START = /^\s*\?\?/;

export function isAssertionLine(text: string): boolean {
  return ASSERTION_START.test(text);
}

export function wordsOf(text: string, from: number): Word[] {
  return [...text.slice(from).matchAll(/\S+/g)].map((match) => {
    const start = from + (match.index ?? 0);
    return { text: match[0], start, end: start + match[0].length };
  });
}

/** The operator's first word index and how many words it spans (`not equals` is two). */
export function operatorAt(words: readonly Word[], from: number): { index: number; span: number; operator: AssertionOperator } | undefined {
  for (let index = from; index < words.length; index += 1) {
    const pair = index + 1 < words.length ? findOperator(`${words[index].text} ${words[index + 1].text}`) : undefined;
    if (pair) return { index, span: 2, operator: pair };
    const single = findOperator(words[index].text);
    if (single) return { index, span: 1, operator: single };
  }
  return undefined;
}

/** Reads a line that starts with `??`; undefined for any other line. */
export function parseAssertionLine(text: string, line: number): AssertionLine | undefined {
  const start = ASSERTION_START.exec(text);
  if (!start) return undefined;
  const fail = (from: number, to: number, message: string): AssertionLine => ({ ok: false, problem: { line, start: from, end: to, message } });
  const words = wordsOf(text, start[0].length);
  if (words.length === 0) return fail(0, text.length, l10n.t('An assertion says what it checks, e.g. "?? status == 200".'));
  const [first] = words;
  const refused = REFUSED_SUBJECTS[first.text.toLowerCase()];
  if (refused) return fail(first.start, first.end, refused());
  const subject = findSubject(first.text);
  if (!subject) {
    const names = SUBJECTS.map((known) => known.name).join(', ');
    return fail(first.start, first.end, l10n.t('"{0}" is not something an assertion can check (use {1}).', first.text, names));
  }
  if (subject.verdict) {
    if (words.length > 1) return fail(words[1].start, text.length, l10n.t('"{0}" is a whole check: write it alone, "?? {0}".', subject.name));
    return { ok: true, assertion: { line, text: text.trim(), subject, operator: NO_OPERATOR } };
  }
  const found = operatorAt(words, 1);
  if (!found) {
    const names = OPERATORS.map((known) => known.name).join(', ');
    return fail(first.start, text.length, l10n.t('This assertion has no operator (one of {0}).', names));
  }
  const operatorWords = words.slice(found.index, found.index + found.span);
  const argument = text.slice(first.end, operatorWords[0].start).trim() || undefined;
  const expected = text.slice(operatorWords[operatorWords.length - 1].end).trim() || undefined;
  const problem = argumentProblem(subject, argument) ?? expectedProblem(found.operator, expected);
  if (problem) {
    const span = problem.where === 'argument' ? [first.end, operatorWords[0].start] : [operatorWords[0].start, text.length];
    return fail(span[0], span[1], problem.message);
  }
  return { ok: true, assertion: { line, text: text.trim(), subject, argument, operator: found.operator, expected } };
}

function argumentProblem(subject: AssertionSubject, argument: string | undefined): { where: 'argument'; message: string } | undefined {
  if (subject.argument === 'none' && argument) {
    return { where: 'argument', message: l10n.t('"{0}" takes no name or path here: "{1}" is not an operator.', subject.name, argument) };
  }
  if (subject.argument === 'required' && !argument) {
    return { where: 'argument', message: l10n.t('"{0}" needs a name, e.g. "?? header content-type includes json".', subject.name) };
  }
  const reason = argument ? subject.checkArgument?.(argument) : undefined;
  return reason ? { where: 'argument', message: reason } : undefined;
}

function expectedProblem(operator: AssertionOperator, expected: string | undefined): { where: 'expected'; message: string } | undefined {
  if (operator.takesExpected && !expected) return { where: 'expected', message: l10n.t('"{0}" needs a value to compare with.', operator.name) };
  if (!operator.takesExpected && expected) return { where: 'expected', message: l10n.t('"{0}" takes no value: remove "{1}".', operator.name, expected) };
  if (operator.name === 'matches' && expected && !expected.includes('{{')) {
    try {
      new RegExp(expected, 'u');
    } catch (error) {
      return { where: 'expected', message: l10n.t('"{0}" is not a valid regular expression: {1}', expected, (error as Error).message) };
    }
  }
  return undefined;
}
