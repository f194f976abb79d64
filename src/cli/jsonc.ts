import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * JSON with comments and trailing commas, as VS Code writes `.vscode/settings.json`, read by VS Code's
 * own parser (jsonc-parser), so the runner accepts exactly what the editor does. A malformed file
 * throws, naming the first error's line and column.
 */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const source = text.replace(/^\uFEFF/, '');
  const value: unknown = parse(source, errors, { allowTrailingComma: true, disallowComments: false });
  const [first] = errors;
  if (!first) return value;
  const before = source.slice(0, first.offset).split('\n');
  const what = printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  throw new SyntaxError(`${what} at line ${before.length}, column ${before[before.length - 1].length + 1}`);
}
