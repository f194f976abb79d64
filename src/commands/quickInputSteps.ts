import * as vscode from 'vscode';
import type { StepOutcome } from './stepSequence';
import { EDITOR_COMMAND } from '../common/commandIds';

/*
 * The pieces the Send Request steps are made of: a quick pick, an input box, Back, and the title that
 * marks a step as shown (so that Back skips the steps that returned at once).
 */

export const BACK = Symbol('back');
/** What pick() and input() resolve with: a value, Back, or undefined when the user cancelled. */
export type StepResult<T> = T | typeof BACK | undefined;
/** What a step resolves with. */
export type Step = StepOutcome;

export function outcome(result: StepResult<unknown>): Step {
  return result === undefined ? 'cancel' : result === BACK ? 'back' : 'next';
}

/** Set by each step that shows an input, so that Back can skip the steps that did not. */
let currentStepShown = { value: false };

/** Called before each step runs: the returned flag says whether the step showed an input. */
export function trackStep(): { value: boolean } {
  currentStepShown = { value: false };
  return currentStepShown;
}

export function title(what: string): string {
  currentStepShown.value = true;
  return vscode.l10n.t('Send Request: {0}', what);
}

/**
 * A problem found in a quick-pick step, where the eye is: the first item of the list (a quick pick has
 * no validation message in VS Code 1.100), shown whatever is typed. It is not a choice: accepting it does nothing.
 */
export function problemItem<T extends vscode.QuickPickItem>(message: string): T {
  return { label: `$(error) ${message}`, alwaysShow: true, problem: true } as vscode.QuickPickItem as T;
}

export function isProblemItem(item: vscode.QuickPickItem | undefined): boolean {
  return (item as { problem?: boolean } | undefined)?.problem === true;
}

export async function pick<T extends vscode.QuickPickItem>(
  items: T[],
  options: { title: string; placeholder: string; active?: string; back: boolean },
): Promise<StepResult<T>> {
  const quickPick = vscode.window.createQuickPick<T>();
  quickPick.title = options.title;
  quickPick.placeholder = options.placeholder;
  quickPick.items = items;
  if (options.back) quickPick.buttons = [vscode.QuickInputButtons.Back];
  const active = items.find((item) => item.label === options.active);
  if (active) quickPick.activeItems = [active];
  return new Promise((resolve) => {
    const finish = settleOnce<StepResult<T>>(resolve, quickPick);
    quickPick.onDidTriggerButton(() => finish(BACK));
    quickPick.onDidAccept(() => {
      const chosen = quickPick.selectedItems[0];
      if (chosen) finish(chosen);
    });
    quickPick.onDidHide(() => finish(undefined));
    quickPick.show();
  });
}

export function input(options: {
  title: string;
  prompt: string;
  value: string;
  validate: (value: string) => string | undefined;
  accept: (value: string) => void;
  /** Offers a button that opens an untitled JSON editor for a value longer than one line. */
  editor?: { tooltip: string; prompt: string; initial: string };
}): Promise<Step> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.prompt = options.prompt;
  box.value = options.value;
  const editorButton: vscode.QuickInputButton | undefined = options.editor
    ? { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: options.editor.tooltip }
    : undefined;
  box.buttons = editorButton ? [vscode.QuickInputButtons.Back, editorButton] : [vscode.QuickInputButtons.Back];
  box.ignoreFocusOut = false;
  let document: vscode.TextDocument | undefined;
  const current = () => (document && !document.isClosed ? document.getText() : box.value);
  return new Promise((resolve) => {
    const finish = settleOnce<Step>(resolve, box);
    box.onDidChangeValue((value) => {
      box.validationMessage = options.validate(value);
    });
    box.onDidTriggerButton(async (button) => {
      if (button !== editorButton || !options.editor) return finish('back');
      // The box stays open while the user writes in the editor; Enter in the box takes the editor's text.
      box.ignoreFocusOut = true;
      box.prompt = options.editor.prompt;
      document ??= await vscode.workspace.openTextDocument({ language: 'json', content: box.value || options.editor.initial });
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    });
    box.onDidAccept(() => {
      const value = current();
      const error = options.validate(value);
      box.validationMessage = error;
      if (error) return;
      options.accept(value);
      // Close the scratch editor first: closing it later would take the focus from the next step.
      void closeWithoutSaving(document).finally(() => finish('next'));
    });
    box.onDidHide(() => finish('cancel'));
    box.show();
  });
}

/** The body editor was only a scratch pad: its text is taken, so close it without a save prompt. */
async function closeWithoutSaving(document: vscode.TextDocument | undefined): Promise<void> {
  if (!document || document.isClosed) return;
  await vscode.window.showTextDocument(document, { preview: false, preserveFocus: false });
  await vscode.commands.executeCommand(EDITOR_COMMAND.revertAndCloseActiveEditor);
}

/** Resolves a step once and disposes its input: hiding the input (dispose does) would settle it again. */
export function settleOnce<R>(resolve: (result: R) => void, input: { dispose(): void }): (result: R) => void {
  let done = false;
  return (result) => {
    if (done) return;
    done = true;
    resolve(result);
    input.dispose();
  };
}
