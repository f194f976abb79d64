import { jsonProblem } from '../common/jsonProblem';

/**
 * The body pretty-printed with two spaces, its `{{...}}` kept as written; undefined when it is not
 * valid JSON. A reference stands in as a number no text of the body contains, then is put back.
 */
export function formatJsonBody(text: string): string | undefined {
  if (jsonProblem(text)) return undefined;
  const references: string[] = [];
  let base = 7_391_820_000;
  while (text.includes(String(base).slice(0, 6))) base += 1_000_000_000;
  const standIn = text.replace(/\{\{[^{}]*\}\}/g, (reference) => String(base + references.push(reference) - 1));
  let formatted: string;
  try {
    formatted = JSON.stringify(JSON.parse(standIn), null, 2);
  } catch {
    return undefined;
  }
  return references.reduce((result, reference, index) => result.split(String(base + index)).join(reference), formatted);
}
