/**
 * Where a JSON body is broken, as line and column: for the request file's problems, Send's question
 * before it sends a broken body anyway, and Send Request's body step. Pure.
 */
import type { ParsedRequest } from './parser';

export interface JsonProblem {
  /** 0-based, in the text given (for malformedJsonBody: in the file). */
  line: number;
  column: number;
  /** The parser's words without its position. */
  message: string;
}

/** A body is JSON when its Content-Type says so, else when it starts like JSON. */
export function isJsonBody(request: Pick<ParsedRequest, 'headers'>, text: string): boolean {
  const type = request.headers.find((header) => header.name.toLowerCase() === 'content-type')?.value;
  if (type !== undefined) return /[/+]json\b/i.test(type);
  return /^\s*[[{]/.test(text);
}

/** Where JSON.parse fails in `text`, as line and column (0-based); undefined when it parses. */
export function jsonSyntaxProblem(text: string): JsonProblem | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : errorOffset(text);
    const before = text.slice(0, offset).split(/\r?\n/);
    const cleaned = message.replace(/, ".*" is not valid JSON$/s, '').replace(/ (in JSON )?at position \d+.*$/s, '');
    return { line: before.length - 1, column: before[before.length - 1].length, message: cleaned };
  }
}

/**
 * Parses a JSON body whose `{{...}}` are stood in for by 0 and spaces (valid in a string and as a
 * value, and as long as the reference, so offsets stay those of the text). Line and column 0-based.
 */
export function jsonProblem(text: string): JsonProblem | undefined {
  return jsonSyntaxProblem(text.replace(/\{\{[^{}]*\}\}/g, (reference) => '0'.padEnd(reference.length, ' ')));
}

/** The request's inline JSON body's problem, at its line and column in the file (0-based); undefined when it has none. */
export function malformedJsonBody(lines: readonly string[], request: Pick<ParsedRequest, 'headers' | 'body'>): JsonProblem | undefined {
  const body = request.body;
  if (body?.kind !== 'inline' || !isJsonBody(request, body.text)) return undefined;
  const problem = jsonProblem(body.text);
  if (!problem) return undefined;
  const line = body.startLine + Math.min(problem.line, body.endLine - body.startLine);
  return { line, column: Math.min(problem.column, lines[line]?.length ?? 0), message: problem.message };
}

/**
 * Where JSON.parse fails when its message gives no position (Node 20 often does not): the shortest
 * prefix that fails for another reason than ending early ends at the offending character.
 */
function errorOffset(text: string): number {
  const failsInside = (length: number) => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      // "Expected ..." (not "Unexpected ...") and the others mean the prefix ended early.
      const message = error instanceof Error ? error.message : String(error);
      return !/end of (JSON )?(data|input)|Unterminated|^Expected/i.test(message);
    }
  };
  let low = 1;
  let high = text.length;
  if (!failsInside(high)) return high;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (failsInside(middle)) high = middle;
    else low = middle + 1;
  }
  return high - 1;
}
