/** Where the CodeLenses of a request file go: Send and Copy as cURL above each request, Send All above the first, Watch above a GET. */
import type { ParsedFile } from './parser';

export type LensKind = 'send' | 'sendAll' | 'copyAsCurl' | 'watch';

export interface LensPlacement {
  line: number;
  kind: LensKind;
  /** The request's index in the file. */
  index: number;
}

export function codeLensPlan(file: ParsedFile): LensPlacement[] {
  const lenses: LensPlacement[] = [];
  for (const request of file.requests) {
    lenses.push({ line: request.requestLine, kind: 'send', index: request.index });
    if (request.index === 0 && file.requests.length > 1) lenses.push({ line: request.requestLine, kind: 'sendAll', index: 0 });
    lenses.push({ line: request.requestLine, kind: 'copyAsCurl', index: request.index });
    // Only a GET is watched: sending a write again every minute is never what a person means.
    if (request.method === 'GET') lenses.push({ line: request.requestLine, kind: 'watch', index: request.index });
  }
  return lenses;
}
