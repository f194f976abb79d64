import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { CatalogueSet } from '../catalog/catalogues';
import { parseCatalogueEntries } from '../catalog/entries';
import { startCatalogueWorker } from '../catalog/lazyLibrary';
import { readSource } from '../catalog/sources';
import { WorkerReader } from '../catalog/workerReader';
import type { Logger } from '../common/logger';
import type { Environment } from './environments';

/**
 * The active environment's catalogues (tenantApi.catalogues, or the environment's own): entries
 * follow the settings and a switch; nothing is read until a catalogue is first needed. A file entry
 * is read from the first workspace folder; an address is fetched without credentials. Descriptions
 * are parsed and kept by a worker thread (WorkerReader).
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
        // Bytes: the worker decodes them (12 MB of text is a long block for the extension host).
        readFile: (file) => fs.promises.readFile(file),
        fileSize: async (file) => (await fs.promises.stat(file)).size,
        // VS Code's fetch, through the user's proxy settings.
        fetch: (input, init) => fetch(input, init),
      }),
    // Read and kept in a worker thread: the extension host never stops for a large description.
    reader: new WorkerReader(startCatalogueWorker, vscode.l10n.bundle),
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
