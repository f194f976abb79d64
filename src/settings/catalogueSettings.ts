import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { CatalogueSet } from '../catalog/catalogues';
import { parseCatalogueEntries } from '../catalog/entries';
import { catalogueLibrary } from '../catalog/lazyLibrary';
import { readSource } from '../catalog/sources';
import type { Logger } from '../common/logger';
import type { Environment } from './environments';

/**
 * The active environment's catalogues (tenantApi.catalogues, or the environment's own): entries
 * follow the settings and a switch; nothing is read until a catalogue is first needed. A file entry
 * is read from the first workspace folder; an address is fetched without credentials.
 */
export function watchCatalogues(
  subscriptions: vscode.Disposable[],
  environments: { active(): Environment; onDidChange(listener: () => void): vscode.Disposable },
  logger: Logger,
): CatalogueSet {
  const catalogues = new CatalogueSet({
    read: (entry) =>
      readSource(entry, {
        folder: vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme === 'file')?.uri.fsPath,
        readFile: (file) => fs.promises.readFile(file, 'utf8'),
        fileSize: async (file) => (await fs.promises.stat(file)).size,
        // VS Code's fetch, through the user's proxy settings.
        fetch: (input, init) => fetch(input, init),
      }),
    library: catalogueLibrary,
    logger,
  });
  const update = () => {
    const { entries, problems } = parseCatalogueEntries(environments.active().settings.catalogues);
    for (const problem of problems) logger.warn(problem);
    catalogues.setEntries(entries);
  };
  update();
  subscriptions.push(catalogues, environments.onDidChange(update));
  return catalogues;
}
