/** The header block of a request file's response tab: the request as sent, its secrets masked. */
import * as vscode from 'vscode';
import type { ApiResponse } from '../../api/types';
import { maskValues } from '../../common/redact';

/** The response as a request file's tab shows it: the values of its secrets masked in the URL. */
export function maskResponse(response: ApiResponse, secrets: readonly string[]): ApiResponse {
  if (secrets.length === 0) return response;
  return { ...response, url: maskValues(response.url, secrets) };
}

/**
 * What a request file's tab adds to the one header block of views/responseFormat: where the request
 * is (file:line) and what selected its data, then the request as sent, given as Send Request gives it
 * (the format writes the headers, credentials masked by name, and the body) with the values of the
 * file's secrets masked here.
 */
export function requestFileTabParts(
  response: ApiResponse,
  options: { selectedBy?: string; body?: string; source: string; secrets: readonly string[] },
): { context: string[]; request: { headers: Record<string, string>; bodyText?: string } } {
  const context = [vscode.l10n.t('Request: {0}', options.source)];
  // What selected the data (responsePresentation.selectorLine): the tenant, or the licence key's organization.
  if (options.selectedBy) context.push(options.selectedBy);
  const headers = Object.fromEntries(Object.entries(response.requestHeaders).map(([name, value]) => [name, maskValues(value, options.secrets)]));
  return { context, request: { headers, bodyText: options.body === undefined ? undefined : maskValues(options.body, options.secrets) } };
}
