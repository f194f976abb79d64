import * as vscode from 'vscode';
import type { CatalogueSet, Documented } from '../../catalog/catalogues';
import { requestBlock, requestFileText, uniqueNames } from '../../catalog/requestText';
import { parseRequestFile } from '../../engine/parser';
import { appendText } from '../../engine/saveBlock';
import { COMMAND, EDITOR_COMMAND, type CommandHandlers } from '../../common/commandIds';
import type { OperationTarget } from '../../views/catalogueTreeModel';
import { pickFile } from './saveToFile';

/** The loaded operation an item (or a caller) names. */
async function documentedOf(catalogues: CatalogueSet, target: unknown): Promise<Documented | undefined> {
  const wanted = ((target as { kind?: string; catalogueId?: string; operation?: { key: string } })?.kind === 'operation'
    ? { catalogueId: (target as { catalogueId: string }).catalogueId, key: (target as { operation: { key: string } }).operation.key }
    : target) as Partial<OperationTarget> | undefined;
  if (typeof wanted?.catalogueId !== 'string' || typeof wanted.key !== 'string') return undefined;
  await catalogues.ready();
  const catalogue = catalogues.list().find((candidate) => candidate.id === wanted.catalogueId);
  const operation = catalogue?.state.kind === 'loaded' ? catalogue.state.document.operations.find((candidate) => candidate.key === wanted.key) : undefined;
  return operation ? { catalogue: catalogue as Documented['catalogue'], operation } : undefined;
}

async function openOrCreate(uri: vscode.Uri): Promise<vscode.TextDocument> {
  try {
    return await vscode.workspace.openTextDocument(uri);
  } catch {
    await vscode.workspace.fs.writeFile(uri, new Uint8Array());
    return vscode.workspace.openTextDocument(uri);
  }
}

/** Add to Request File: the operation's request (its path parameters as file variables) appended to a file. */
async function addToFile(catalogues: CatalogueSet, target: unknown, file: unknown): Promise<string | undefined> {
  const documented = await documentedOf(catalogues, target);
  if (!documented) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Choose an operation in the Tenants view to add it to a request file.'));
    return undefined;
  }
  const uri = file instanceof vscode.Uri ? file : typeof file === 'string' ? vscode.Uri.file(file) : await pickFile();
  if (!uri) return undefined;
  const document = await openOrCreate(uri);
  const parsed = parseRequestFile(document.getText());
  const taken = new Set(parsed.requests.flatMap((request) => (request.name ? [request.name] : [])));
  const [name] = uniqueNames([documented.operation]);
  let unique = name;
  for (let n = 2; unique && taken.has(unique); n++) unique = `${name}_${n}`;
  const block = requestBlock(documented.operation, await catalogues.exampleBody(documented).catch(() => undefined), unique);
  const defined = new Set(parsed.variables.map((variable) => variable.name));
  const variables = block.variables.filter((variable) => !defined.has(variable.name)).map((variable) => `@${variable.name} = ${variable.value}`);
  const text = [...variables, ...(variables.length > 0 ? [''] : []), ...block.lines].join('\n');
  const edit = new vscode.WorkspaceEdit();
  edit.insert(uri, document.lineAt(document.lineCount - 1).range.end, appendText(document.getText(), text));
  await vscode.workspace.applyEdit(edit);
  await document.save();
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  editor.revealRange(new vscode.Range(document.lineCount - 1, 0, document.lineCount - 1, 0));
  return uri.toString();
}

/** Generate Request Files: one file per group of a catalogue's operations, in a folder the user picks; nothing is replaced. */
async function generate(catalogues: CatalogueSet, options: { catalogueId?: string; folder?: string } = {}): Promise<string[] | undefined> {
  await catalogues.ready();
  const loaded = catalogues.list().filter((catalogue) => catalogue.state.kind === 'loaded') as Array<Documented['catalogue']>;
  if (loaded.length === 0) {
    const open = vscode.l10n.t('Open Settings');
    const answer = await vscode.window.showWarningMessage(vscode.l10n.t('No catalogue is attached: add an OpenAPI description to the setting tenantApi.catalogues.'), open);
    if (answer === open) await vscode.commands.executeCommand(EDITOR_COMMAND.openSettings, 'tenantApi.catalogues');
    return undefined;
  }
  const chosen =
    loaded.find((catalogue) => catalogue.id === options.catalogueId) ??
    (await vscode.window.showQuickPick(loaded.map((catalogue) => ({ label: catalogue.state.document.title, description: catalogue.name, catalogue })), { placeHolder: vscode.l10n.t('Write request files from which catalogue?') }))?.catalogue;
  if (!chosen) return undefined;
  const folder = options.folder ? vscode.Uri.file(options.folder) : (await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: vscode.l10n.t('Write Here'), defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri }))?.[0];
  if (!folder) return undefined;
  const groups = new Map<string, Documented['operation'][]>();
  for (const operation of chosen.state.document.operations) groups.set(operation.group, [...(groups.get(operation.group) ?? []), operation]);
  const files: Array<{ uri: vscode.Uri; text: string }> = [];
  for (const [group, operations] of groups) {
    const names = uniqueNames(operations);
    const bodies = await Promise.all(operations.map((operation) => catalogues.exampleBody({ catalogue: chosen, operation }).catch(() => undefined)));
    const blocks = operations.map((operation, index) => requestBlock(operation, bodies[index], names[index]));
    const base = group.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().replace(/[\s_]+/g, '-').toLowerCase() || 'requests';
    files.push({ uri: vscode.Uri.joinPath(folder, `${base}.http`), text: requestFileText(blocks, [`${chosen.state.document.title}: ${group}`]) });
  }
  // All or nothing, as tenant-api import: an existing file is never replaced.
  for (const file of files) {
    const exists = await vscode.workspace.fs.stat(file.uri).then(() => true, () => false);
    if (exists) {
      void vscode.window.showErrorMessage(vscode.l10n.t('{0} exists: nothing was written.', vscode.workspace.asRelativePath(file.uri)));
      return undefined;
    }
  }
  for (const file of files) await vscode.workspace.fs.writeFile(file.uri, Buffer.from(file.text, 'utf8'));
  await vscode.window.showTextDocument(files[0].uri, { preview: false });
  return files.map((file) => file.uri.toString());
}

export function catalogueFileCommands(catalogues: CatalogueSet | undefined): CommandHandlers {
  if (!catalogues) return {};
  return {
    [COMMAND.addOperationToRequestFile]: (target?: unknown, file?: unknown) => addToFile(catalogues, target, file),
    [COMMAND.generateRequestFiles]: (options?: { catalogueId?: string; folder?: string }) => generate(catalogues, options),
  };
}
