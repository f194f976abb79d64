// What the request-file suites do in the editor: open a file, click a CodeLens, find response tabs.
import * as vscode from 'vscode';
import { driver } from './driver';

export function tabsLabelled(prefix: string): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.label.startsWith(prefix));
}

export async function openFile(file: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
}

/** Scrolls the request line to the top and clicks the CodeLens whose tooltip is `tooltip`. */
export async function clickLens(editor: vscode.TextEditor, line: number, tooltip: string): Promise<void> {
  editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.AtTop);
  await driver.click(`.codelens-decoration a[title="${tooltip}"]`, { timeoutMs: 20_000 });
}
