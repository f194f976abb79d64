import * as vscode from 'vscode';
import { readPastedCurl } from './curlPaste';
import type { FlowDeps, FlowState } from './sendRequestChecks';

/**
 * Send Request's first step given a cURL command: the request it sends fills the flow (its body and
 * extra headers steps open, filled in), and what the import dropped is said. Returns the problem to
 * show at the step, or undefined when the flow goes on.
 */
export async function acceptPastedCurl(deps: FlowDeps, state: FlowState, text: string): Promise<string | undefined> {
  const clusters = await deps.tenants.tenants().then((tenants) => tenants.map((tenant) => tenant.clusterAddress), () => []);
  const pasted = readPastedCurl(text, deps.baseUrl?.(), clusters);
  if ('error' in pasted) return pasted.error;
  state.method = pasted.method;
  state.path = pasted.path;
  state.query = pasted.query;
  state.body = pasted.body;
  state.headers = pasted.headers;
  state.open = { query: false, body: pasted.body !== undefined, headers: pasted.headers !== undefined };
  if (pasted.notes.length > 0) void vscode.window.showInformationMessage(vscode.l10n.t('From the cURL command: {0}', pasted.notes.join(' ')));
  return undefined;
}
