/**
 * Where a JSON text breaks, as a line and a column (0-based) and the parser's sentence without its
 * position: for request bodies and the environment files beside request files. A `{{...}}` reference
 * stands in as 0 and spaces (valid as a value and in a string, and as long as the reference, so the
 * offsets stay those of the text).
 */
export function jsonProblem(text: string): JsonProblem | undefined {
  return jsonSyntaxProblem(text.replace(/\{\{[^{}]*\}\}/g, (reference) => '0'.padEnd(reference.length, ' ')));
}

export interface JsonProblem {
  line: number;
  column: number;
  message: string;
}

/** Where JSON.parse fails in `text` as it is (no stand-ins), line and column 0-based; undefined when it parses. */
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

