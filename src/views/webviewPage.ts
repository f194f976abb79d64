/**
 * The page of a webview of ours: a strict content security policy (no remote anything, scripts only by
 * the page's nonce, styles only from the extension's files), one bundled script and one stylesheet from
 * dist/webview/, and the first data the script draws, embedded as JSON so that the first screen needs
 * no round trip. No `vscode` here.
 */
import { randomBytes } from 'node:crypto';

export interface WebviewPageParts {
  /** webview.cspSource: where the extension's files are served from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
  /** The display language (the page's lang, for screen readers). */
  lang: string;
  title: string;
  /** Read by the script from #initial-data; anything JSON. */
  initial: unknown;
}

/** A fresh nonce per page (128 random bits). */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `img-src ${cspSource} data:`, `style-src ${cspSource}`, `font-src ${cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

/** JSON that cannot end the script element it sits in, whatever text the data holds. */
export function scriptJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function webviewPage(parts: WebviewPageParts): string {
  const nonce = escapeHtml(parts.nonce);
  return `<!DOCTYPE html>
<html lang="${escapeHtml(parts.lang)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(parts.cspSource, parts.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<link rel="stylesheet" href="${escapeHtml(parts.styleUri)}">
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" id="initial-data" type="application/json">${scriptJson(parts.initial)}</script>
<script nonce="${nonce}" src="${escapeHtml(parts.scriptUri)}"></script>
</body>
</html>`;
}
