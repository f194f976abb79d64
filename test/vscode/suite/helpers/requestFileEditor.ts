// What the request-file suites do in the editor: open a file, click a CodeLens, find response tabs.
import * as vscode from 'vscode';
import { driver } from './driver';
import { waitFor } from './workbench';

export function tabsLabelled(prefix: string): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.label.startsWith(prefix));
}

export async function openFile(file: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
}

/**
 * Scrolls the request line to the top and clicks the CodeLens whose tooltip is `tooltip`. VS Code
 * drops an editor's pending request for its lenses when the text loses the focus (a view that takes
 * it as it opens), and asks again only once the text has it back: so the text is given the focus, as
 * a user clicking into the file does, until the lens shows.
 */
export async function clickLens(editor: vscode.TextEditor, line: number, tooltip: string): Promise<void> {
  await clickLensIn(editor.document, `.codelens-decoration a[title="${tooltip}"]`, line, editor.viewColumn);
}

/** Clicks the shown CodeLens `lens` (a selector) of `document` near `line`, the text focused until it shows (see clickLens). */
export async function clickLensIn(document: vscode.TextDocument, lens: string, line: number, viewColumn?: vscode.ViewColumn): Promise<void> {
  // The lens of this editor: another editor's, hidden, may match too.
  const shown = `${lens} >> visible=true`;
  await waitFor(
    async () => {
      const editor = await vscode.window.showTextDocument(document, { viewColumn, preview: false, preserveFocus: false });
      editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.AtTop);
      return driver.waitFor(shown, { timeoutMs: 2000 }).then(
        () => true,
        () => undefined,
      );
    },
    { timeoutMs: 20_000, what: `the CodeLens ${lens} on line ${line + 1}` },
  );
  await driver.click(shown, { timeoutMs: 10_000 });
}
