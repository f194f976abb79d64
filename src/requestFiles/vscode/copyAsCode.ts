import * as vscode from 'vscode';
import type { TenantResolver } from '../../api/tenantResolver';
import type { TenantApi } from '../../api/types';
import { COMMAND, type CommandHandlers } from '../../common/commandIds';
import { copySnippet } from '../../commands/copyAsCode';
import type { SnippetRequest } from '../../engine/codeSnippets';
import { requestAtLine } from '../../engine/parser';
import { platformPath, prepareRequest, type PreparedRequest } from '../../engine/prepare';
import type { RequestFileRunner } from '../../engine/runner';
import { isRequestDocument, requestDocument, type ParsedDocuments } from './documents';

export interface CopyAsCodeDeps {
  api: Pick<TenantApi, 'routeFor'>;
  tenants: Pick<TenantResolver, 'resolve'>;
  runner: RequestFileRunner;
  parsed: ParsedDocuments;
  baseUrl(): string;
  state: vscode.Memento;
}

/** The request as it would be sent: a platform path on its host (the base URL or the tenant's cluster) with its route, or another host's URL. */
async function snippetRequest(prepared: PreparedRequest, deps: CopyAsCodeDeps): Promise<SnippetRequest> {
  // The tenant named, else the active one; the snippet is still made when neither is known.
  const tenant = await deps.tenants.resolve(prepared.tenant, 'optional', '').catch(() => undefined);
  const target = prepared.target;
  const path = target.kind === 'path' ? target.path : platformPath(target.url, { baseUrl: deps.baseUrl(), clusterAddress: tenant?.clusterAddress })?.path;
  const common = { method: prepared.method, headers: prepared.headers, body: prepared.body, secrets: prepared.secrets };
  if (path === undefined) return { ...common, url: target.kind === 'absolute' ? target.url.href : '' };
  const route = deps.api.routeFor(path);
  const origin = route?.host === 'cluster' ? (tenant?.clusterAddress ?? deps.baseUrl()) : deps.baseUrl();
  return { ...common, url: origin.replace(/\/+$/, '') + path, platform: { route, tenantId: tenant?.id } };
}

/** tenantApi.requestFile.copyAsCode: the request under the cursor (or the one given) as code in a language picked. */
export function copyAsCodeFileCommands(deps: CopyAsCodeDeps): CommandHandlers {
  return {
    [COMMAND.requestFileCopyAsCode]: async (uri?: unknown, index?: unknown, options?: { language?: string }): Promise<string | undefined> => {
      const document = uri instanceof vscode.Uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
      if (!document || !isRequestDocument(document)) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Open a request file (.http or .rest) first.'));
        return undefined;
      }
      const file = deps.parsed.get(document);
      const editor = vscode.window.activeTextEditor;
      const request = typeof index === 'number' ? file.requests[index] : requestAtLine(file, editor?.document === document ? editor.selection.active.line : 0);
      if (!request) {
        void vscode.window.showWarningMessage(vscode.l10n.t('The cursor is not on a request. Requests are separated by lines starting with ###.'));
        return undefined;
      }
      const prepared = prepareRequest(file, request, deps.runner.sources(document.uri.toString(), file), requestDocument(document));
      if (!prepared.ok) {
        void vscode.window.showErrorMessage(prepared.message);
        return undefined;
      }
      return copySnippet(await snippetRequest(prepared.request, deps), deps.state, options?.language);
    },
  };
}
