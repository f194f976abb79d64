/** The header block of a request file's response tab: the request as sent, its secrets masked. */
import * as vscode from 'vscode';
import type { ApiResponse } from '../../api/types';
import { formatBytes } from '../../views/responseFormat';
import { shownHeaderValue } from '../../views/responsePresentation';

function mask(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 3) out = out.split(secret).join('***');
  return out;
}

/** The response as a request file's tab shows it: the values of its secrets masked in the URL. */
export function maskResponse(response: ApiResponse, secrets: readonly string[]): ApiResponse {
  if (secrets.length === 0) return response;
  return { ...response, url: mask(response.url, secrets) };
}

/** The request part of the header block: method, URL, headers as sent (credentials masked), body size. */
export function requestContextLines(
  response: ApiResponse,
  options: { selectedBy?: string; bodyBytes?: number; source: string; secrets: readonly string[]; locale: string },
): string[] {
  const lines = [vscode.l10n.t('Request: {0}', options.source)];
  // What selected the data (responsePresentation.selectorLine): the tenant, or the licence key's organization.
  if (options.selectedBy) lines.push(options.selectedBy);
  lines.push(vscode.l10n.t('Request headers'));
  for (const name of Object.keys(response.requestHeaders).sort()) {
    // Masked by name (the one isSecretHeader rule, also for a secret header written in the file) and by value.
    lines.push(`  ${name}: ${mask(shownHeaderValue(name, response.requestHeaders[name]), options.secrets)}`);
  }
  lines.push(vscode.l10n.t('Request body: {0}', options.bodyBytes === undefined ? vscode.l10n.t('none') : formatBytes(options.bodyBytes, options.locale)));
  return lines;
}
