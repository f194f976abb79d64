/**
 * What changed between two answers of a watched resource: both bodies laid out the same way first
 * (JSON with sorted keys, two-space indent), so a different key order or whitespace is no change, then
 * a line diff (the `diff` package's Myers algorithm, after the common head and tail are set aside). No
 * `vscode` here.
 */
import { diffArrays } from 'diff';

export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

export interface BodyDiff {
  changed: boolean;
  added: number;
  removed: number;
  /** Changed lines with `context` lines around them: `- old`, `+ new`, `  same`, `…` between hunks. */
  lines: string[];
  /** True when more changed lines than `maxLines` were left out. */
  truncated: boolean;
}

/** Beyond this many differences the two bodies are shown as one removed and one added block. */
const MAX_EDIT_DISTANCE = 1000;

/** The body laid out for comparison: JSON with sorted keys and two-space indent; other text as is (line ends unified). */
export function comparableBody(text: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(text)), null, 2);
  } catch {
    return text.replace(/\r\n?/g, '\n');
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/** The lines of `before` and `after` in order, each same, removed or added (a shortest edit script). */
export function lineDiff(before: readonly string[], after: readonly string[]): DiffLine[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDIT_DISTANCE });
  const middle = changes
    ? changes.flatMap((change) => change.value.map((text): DiffLine => ({ kind: change.added ? 'added' : change.removed ? 'removed' : 'same', text })))
    : [...a.map((text): DiffLine => ({ kind: 'removed', text })), ...b.map((text): DiffLine => ({ kind: 'added', text }))];
  const same = (text: string): DiffLine => ({ kind: 'same', text });
  return [...before.slice(0, head).map(same), ...middle, ...before.slice(before.length - tail).map(same)];
}

/** The diff of two bodies as a person reads it: the changed lines with `context` lines around them, at most `maxLines`. */
export function bodyDiff(previous: string, next: string, options: DiffOptions = {}): BodyDiff {
  return comparableDiff(comparableBody(previous), comparableBody(next), options);
}

export interface DiffOptions {
  context?: number;
  maxLines?: number;
}

/** The diff of two bodies already laid out by comparableBody (a watch keeps the previous one so, not to lay it out again). */
export function comparableDiff(previous: string, next: string, { context = 2, maxLines = 200 }: DiffOptions = {}): BodyDiff {
  const diff = lineDiff(previous.split('\n'), next.split('\n'));
  const added = diff.filter((line) => line.kind === 'added').length;
  const removed = diff.filter((line) => line.kind === 'removed').length;
  const shown = new Array<boolean>(diff.length).fill(false);
  diff.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let near = Math.max(0, index - context); near <= Math.min(diff.length - 1, index + context); near++) shown[near] = true;
  });
  const lines: string[] = [];
  let truncated = false;
  diff.forEach((line, index) => {
    if (!shown[index]) return;
    if (lines.length >= maxLines) {
      truncated = true;
      return;
    }
    if (index > 0 && !shown[index - 1] && lines.length > 0) lines.push('…');
    lines.push(`${line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '} ${line.text}`);
  });
  return { changed: added + removed > 0, added, removed, lines, truncated };
}
