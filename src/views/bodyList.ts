/**
 * The list a response body holds: the body itself when it is an array, else its longest array
 * property (`elementi` of a page). The preview of a large response and the table view read the same
 * list. No `vscode` here.
 */
export interface BodyList {
  /** The property holding the list; '' when the body is the list. */
  key: string;
  items: unknown[];
}

export function longestList(json: unknown): BodyList | undefined {
  if (Array.isArray(json)) return { key: '', items: json };
  if (json === null || typeof json !== 'object') return undefined;
  let found: BodyList | undefined;
  for (const [key, value] of Object.entries(json)) {
    if (Array.isArray(value) && value.length > (found?.items.length ?? 0)) found = { key, items: value };
  }
  return found;
}
