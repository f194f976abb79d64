import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseRequestFile, type ParsedFile } from '../../engine/parser';
import { requestDocument as fileDocument } from '../../engine/documents';
import type { RequestDocument } from '../../engine/runner';

export const REQUEST_LANGUAGE = 'tenant-api-http';

/**
 * Our language for .http/.rest, REST Client's and httpYac's (`http`) when they are installed and
 * claim the files, and any .http/.rest file on disk whatever language it got.
 */
export const REQUEST_SELECTOR: vscode.DocumentSelector = [
  { language: REQUEST_LANGUAGE },
  { language: 'http' },
  { scheme: 'file', pattern: '**/*.{http,rest}' },
  { scheme: 'untitled', language: REQUEST_LANGUAGE },
];

export function isRequestDocument(document: vscode.TextDocument): boolean {
  return vscode.languages.match(REQUEST_SELECTOR, document) > 0;
}

/** One parse per document version, shared by the CodeLens, diagnostics, completion and hover. */
export class ParsedDocuments {
  private readonly cache = new Map<string, { version: number; file: ParsedFile }>();

  get(document: vscode.TextDocument): ParsedFile {
    const key = document.uri.toString();
    const cached = this.cache.get(key);
    if (cached && cached.version === document.version) return cached.file;
    const file = parseRequestFile(document.getText());
    this.cache.set(key, { version: document.version, file });
    return file;
  }

  forget(document: vscode.TextDocument): void {
    this.cache.delete(document.uri.toString());
  }
}

/** What the runner needs of a document: its text, and files named by `< ./body.json` read beside it. */
export function requestDocument(document: vscode.TextDocument): RequestDocument {
  const folder = document.uri.scheme === 'file' ? path.dirname(document.uri.fsPath) : (vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd());
  return fileDocument(document.uri.toString(), document.getText(), folder);
}
