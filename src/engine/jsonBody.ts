/**
 * Where a request's JSON body is broken, at its line and column in the file: for the request file's
 * problems and Send's question before it sends a broken body anyway. The parsing is common/jsonProblem's. Pure.
 */
import { jsonProblem, jsonSyntaxProblem, type JsonProblem } from '../common/jsonProblem';
import type { ParsedRequest } from './parser';

export { jsonProblem, jsonSyntaxProblem, type JsonProblem };

/** A body is JSON when its Content-Type says so, else when it starts like JSON. */
export function isJsonBody(request: Pick<ParsedRequest, 'headers'>, text: string): boolean {
  const type = request.headers.find((header) => header.name.toLowerCase() === 'content-type')?.value;
  if (type !== undefined) return /[/+]json\b/i.test(type);
  return /^\s*[[{]/.test(text);
}

/** The request's inline JSON body's problem, at its line and column in the file (0-based); undefined when it has none. */
export function malformedJsonBody(lines: readonly string[], request: Pick<ParsedRequest, 'headers' | 'body'>): JsonProblem | undefined {
  const body = request.body;
  if (body?.kind !== 'inline' || !isJsonBody(request, body.text)) return undefined;
  const problem = jsonProblem(body.text);
  if (!problem) return undefined;
  // Comment lines inside a body are left out of its text: `lines` maps its lines back to the file's.
  const line = body.lines?.[problem.line] ?? body.startLine + Math.min(problem.line, body.endLine - body.startLine);
  return { line, column: Math.min(problem.column, lines[line]?.length ?? 0), message: problem.message };
}
