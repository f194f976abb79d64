/** A request line's method and URL with the columns of the URL (`GET /pets/{{id}} HTTP/1.1`), for hover. */
export function requestLine(text: string): { method: string; url: string; start: number; end: number } | undefined {
  const match = /^(\s*)([A-Za-z]+)(\s+)(\/\S*)/.exec(text);
  if (!match) return undefined;
  const start = match[1].length + match[2].length + match[3].length;
  return { method: match[2].toUpperCase(), url: match[4], start, end: start + match[4].length };
}
