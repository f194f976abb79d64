/**
 * What the editor offers on an assertion line: which part is being typed (subject, header name,
 * operator, or the free expected value) and what the word under the pointer is, read with the same
 * words and tables as the parser. No `vscode` here.
 */
import { isAssertionLine, operatorAt, wordsOf, type Word } from './assertionLine';
import { type AssertionOperator } from './operators';
import { findSubject, type AssertionSubject } from './subjects';

export type AssertionSpotKind = 'assertionSubject' | 'assertionHeaderName' | 'assertionOperator' | 'none';

/** Response headers worth checking, offered after `?? header `. */
export const RESPONSE_HEADER_NAMES: readonly string[] = [
  'content-type', 'content-length', 'cache-control', 'etag', 'last-modified', 'location', 'service-limit-info', 'x-request-id',
];

const MARKER = /^\s*\?\?/;

/** What is typed at the end of `before` (the line up to the cursor), or undefined off an assertion line. */
export function assertionSpot(before: string): { kind: AssertionSpotKind; prefix: string } | undefined {
  const marker = MARKER.exec(before);
  if (!marker) return undefined;
  const rest = before.slice(marker[0].length);
  if (rest === '') return { kind: 'none', prefix: '' };
  const words = wordsOf(rest, 0);
  const typing = /\S$/.test(rest) ? words.pop()!.text : '';
  if (words.length === 0) return { kind: 'assertionSubject', prefix: typing };
  const subject = findSubject(words[0].text);
  if (!subject || subject.verdict || operatorAt(words, 1)) return { kind: 'none', prefix: '' };
  if (subject.argument === 'required' && words.length === 1) {
    return { kind: subject.name === 'header' ? 'assertionHeaderName' : 'none', prefix: typing };
  }
  // `?? status ` takes an operator; `?? body $.x `, `?? header etag ` too; `?? status 2` is wrong, and the parser says so.
  return { kind: 'assertionOperator', prefix: typing };
}

export type AssertionWord =
  | { kind: 'subject'; start: number; end: number; subject: AssertionSubject }
  | { kind: 'operator'; start: number; end: number; operator: AssertionOperator };

/** The subject or operator word at `character` of an assertion line, for hover. */
export function assertionWordAt(text: string, character: number): AssertionWord | undefined {
  if (!isAssertionLine(text)) return undefined;
  const words = wordsOf(text, (MARKER.exec(text) ?? [''])[0].length);
  if (words.length === 0) return undefined;
  const covers = (word: Word) => character >= word.start && character <= word.end;
  const subject = findSubject(words[0].text);
  if (subject && covers(words[0])) return { kind: 'subject', start: words[0].start, end: words[0].end, subject };
  const found = operatorAt(words, 1);
  if (!found) return undefined;
  const first = words[found.index];
  const last = words[found.index + found.span - 1];
  if (character < first.start || character > last.end) return undefined;
  return { kind: 'operator', start: first.start, end: last.end, operator: found.operator };
}
