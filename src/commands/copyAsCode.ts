import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMAND, type CommandHandlers } from '../common/commandIds';
import type * as CodeSnippets from '../engine/codeSnippets';
import type { SnippetRequest } from '../engine/codeSnippets';
import { handle, type WorkbenchCommandContext } from './commandContext';
import { pickHistoryEntry } from './historyPicker';
import type { HistoryEntry } from './requestHistory';
import { responseTabRequest, runFileCommand } from './responseTabRequest';

/**
 * The snippet generator, from its own bundle (dist/codeSnippets.js, beside the extension's): loaded the
 * first time Copy as Code is used, never at activation.
 */
function loadSnippets(): typeof CodeSnippets {
  // A path esbuild cannot follow, so the generator stays out of the extension's bundle.
  const file = path.join(__dirname, 'codeSnippets.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file) as typeof CodeSnippets;
}

const LAST_LANGUAGE = 'tenantApi.copyAsCode.language';

/**
 * Asks for the language (the last one used first, or `language` given by a script), writes the snippet
 * to the clipboard and says which environment variables it reads. Returns the snippet.
 */
export async function copySnippet(request: SnippetRequest, state: vscode.Memento, language?: string): Promise<string | undefined> {
  const snippets = loadSnippets();
  let chosen = language;
  if (!chosen) {
    const last = state.get<string>(LAST_LANGUAGE);
    const items = [...snippets.SNIPPET_LANGUAGES]
      .sort((a, b) => Number(b.id === last) - Number(a.id === last))
      .map((candidate) => ({ label: candidate.label, id: candidate.id, description: candidate.id === last ? vscode.l10n.t('last used') : undefined }));
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Copy as Code'), placeHolder: vscode.l10n.t('Language of the snippet for {0} {1}', request.method, request.url) });
    if (!picked) return undefined;
    chosen = picked.id;
    await state.update(LAST_LANGUAGE, chosen);
  }
  const label = snippets.SNIPPET_LANGUAGES.find((candidate) => candidate.id === chosen)?.label ?? chosen;
  const snippet = snippets.buildSnippet(chosen, request);
  await vscode.env.clipboard.writeText(snippet.code);
  void vscode.window.showInformationMessage(
    snippet.variables.length > 0
      ? vscode.l10n.t('Copied as {0}. It reads {1} from the environment: no secret is in the code.', label, snippet.variables.join(', '))
      : vscode.l10n.t('Copied as {0}.', label),
  );
  return snippet.code;
}

/** A request of the history as a snippet's request: the platform's headers come from its route. */
function fromHistory(entry: HistoryEntry, deps: WorkbenchCommandContext): SnippetRequest | undefined {
  if (!entry.url) return undefined;
  return { method: entry.method, url: entry.url, headers: entry.headers ?? {}, body: entry.body, platform: { route: deps.api.routeFor(entry.path), tenantId: entry.tenantId } };
}

/**
 * tenantApi.copyAsCode: a response tab's request (from its title bar), else the request under the
 * cursor of a request file, else one picked from the history, as code in a language picked.
 */
export function copyAsCodeCommands(deps: WorkbenchCommandContext, state: vscode.Memento): CommandHandlers {
  const handlers: CommandHandlers = {};
  handle(handlers, COMMAND.copyAsCode, async (args?: unknown): Promise<string | undefined> => {
    const tab = await responseTabRequest(args, deps.views.responses, deps.history.entries());
    if (tab && 'file' in tab) return (await runFileCommand(COMMAND.requestFileCopyAsCode, tab.file, tab.index)) as string | undefined;
    const options = (tab ? {} : (args ?? {})) as { language?: string; index?: number };
    const editor = vscode.window.activeTextEditor;
    if (!tab && options.index === undefined && editor && /\.(http|rest)$/i.test(editor.document.uri.path)) {
      return (await vscode.commands.executeCommand(COMMAND.requestFileCopyAsCode, editor.document.uri, undefined, options)) as string | undefined;
    }
    const entry = tab ? tab.entry : typeof options.index === 'number' ? deps.history.entries()[options.index] : await pickHistoryEntry(deps.history);
    const request = entry && fromHistory(entry, deps);
    if (!request) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Send a request first: there is nothing to copy yet.'));
      return undefined;
    }
    return copySnippet(request, state, options.language);
  });
  return handlers;
}
