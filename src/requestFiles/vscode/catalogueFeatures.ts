import * as vscode from 'vscode';
import { isCredentialHeader } from '../../api/requestHeaders';
import type { CatalogueSet } from '../../catalog/catalogues';
import { requestLine } from '../../catalog/requestLine';
import type { CompletionSpot } from '../../engine/completionContext';
import { operationMarkdown } from '../../views/catalogueTreeModel';

/*
 * What the catalogues add to request files: documented paths (their parameters as placeholders),
 * query and header parameter names, the body from the schema, each with its description; the
 * operation on hover; a body checked against its schema.
 */

/** Waits for the catalogues a little: the first completion reads them (a large one takes a second or two). */
async function loaded(catalogues: CatalogueSet): Promise<void> {
  await Promise.race([catalogues.ready(), new Promise((resolve) => setTimeout(resolve, 3000))]);
}

function documented(catalogues: CatalogueSet, spot: CompletionSpot) {
  return spot.request ? catalogues.find(spot.request.method, spot.request.url.replace(/[?&].*$/, '')) : undefined;
}

function markdown(text: string): vscode.MarkdownString {
  return new vscode.MarkdownString(text);
}

function pathItems(catalogues: CatalogueSet, method: string | undefined, range: vscode.Range): vscode.CompletionItem[] {
  const items: vscode.CompletionItem[] = [];
  for (const catalogue of catalogues.list()) {
    if (catalogue.state.kind !== 'loaded') continue;
    for (const operation of catalogue.state.document.operations) {
      let index = 0;
      const snippet = operation.path
        .split(/(\{[^{}/]+\})/)
        .map((part) => (/^\{[^{}/]+\}$/.test(part) ? `\${${++index}:${part.slice(1, -1).replace(/[$}\\]/g, '')}}` : part.replace(/[$}\\]/g, '\\$&')))
        .join('');
      const item = new vscode.CompletionItem({ label: operation.path, description: operation.method }, vscode.CompletionItemKind.Reference);
      item.range = range;
      item.insertText = new vscode.SnippetString(snippet);
      item.filterText = operation.path;
      item.detail = `${operation.method} · ${operation.summary ?? catalogue.state.document.title}`;
      item.documentation = markdown(operationMarkdown(operation));
      // The operations of the method typed first.
      item.sortText = `${operation.method === method ? 0 : 1}${operation.path}`;
      items.push(item);
    }
  }
  return items;
}

export async function catalogueCompletions(catalogues: CatalogueSet | undefined, spot: CompletionSpot, range: vscode.Range, lineText: string): Promise<vscode.CompletionItem[]> {
  if (!catalogues?.configured() || !['path', 'query', 'header', 'body'].includes(spot.kind)) return [];
  await loaded(catalogues);
  if (spot.kind === 'path') return pathItems(catalogues, /^\s*([A-Za-z]+)\s/.exec(lineText)?.[1]?.toUpperCase(), range);
  const found = documented(catalogues, spot);
  if (!found) return [];
  const { operation } = found;
  if (spot.kind === 'body') {
    if (!operation.body?.json) return [];
    const item = new vscode.CompletionItem(vscode.l10n.t('Body of {0} {1}', operation.method, operation.path), vscode.CompletionItemKind.Snippet);
    item.range = range;
    item.insertText = JSON.stringify((await catalogues.exampleBody(found).catch(() => undefined)) ?? {}, null, 2);
    item.detail = operation.body.example !== undefined ? vscode.l10n.t('the documented example') : vscode.l10n.t('a sample of the schema');
    item.documentation = markdown(operationMarkdown(operation));
    item.filterText = `{ ${operation.path}`;
    item.sortText = '0';
    return [item];
  }
  const place = spot.kind === 'query' ? 'query' : 'header';
  return operation.parameters
    .filter((parameter) => parameter.in === place && !(place === 'header' && isCredentialHeader(parameter.name)))
    .map((parameter) => {
      const item = new vscode.CompletionItem(parameter.name, spot.kind === 'query' ? vscode.CompletionItemKind.Field : vscode.CompletionItemKind.Property);
      item.range = range;
      item.insertText = spot.kind === 'query' ? `${parameter.name}=` : `${parameter.name}: `;
      item.detail = [parameter.type, parameter.required ? vscode.l10n.t('required') : vscode.l10n.t('optional'), operation.key].filter(Boolean).join(' · ');
      if (parameter.description) item.documentation = markdown(parameter.description);
      item.sortText = `0${parameter.required ? 0 : 1}${parameter.name}`;
      return item;
    });
}

/** The operation a request line names, on hover over its URL. */
export function catalogueHover(catalogues: CatalogueSet | undefined, lineText: string, position: vscode.Position): vscode.Hover | undefined {
  const line = catalogues && requestLine(lineText);
  if (!catalogues || !line || position.character < line.start || position.character > line.end) return undefined;
  const found = catalogues.find(line.method, line.url.split('?')[0]);
  if (!found) return undefined;
  return new vscode.Hover(markdown(`${operationMarkdown(found.operation)}\n\n${vscode.l10n.t('Catalogue: {0}', found.catalogue.state.document.title)}`), new vscode.Range(position.line, line.start, position.line, line.end));
}

