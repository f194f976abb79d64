import * as vscode from 'vscode';
import * as l10n from '../../../common/l10n';
import type { TenantRecord } from '../../../api/types';
import { parseRequestFile, tenantOf, type ParsedFile } from '../../../engine/parser';
import { EVERY_TENANT, splitTenants } from '../../../engine/tenantList';
import { testCasesOf } from '../../../engine/testing/testPlan';
import { isRequestDocument, type ParsedDocuments } from '../documents';

export const REQUEST_FILE_GLOB = '**/*.{http,rest}';
const EXCLUDED = '**/node_modules/**';

/**
 * The Testing view's tree: a request file with at least one assertion is an item, each request with
 * assertions a child (its range puts the run button in the gutter). Open files are read as they are
 * edited; the workspace is searched, and watched, only once the view asks (resolveHandler), so
 * activation does not wait for a search of the workspace.
 */
export class RequestFileTestItems implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private discovery: Promise<void> | undefined;

  constructor(
    private readonly controller: vscode.TestController,
    private readonly parsed: ParsedDocuments,
    /** The signed-in user's tenants when already listed (a `# @tenant *` test's children). */
    private readonly knownTenants: () => readonly TenantRecord[] | undefined = () => undefined,
  ) {
    controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((document) => this.fromDocument(document)),
      vscode.workspace.onDidChangeTextDocument((event) => this.fromDocument(event.document)),
      // Unsaved edits thrown away: the file on disk is what counts again.
      vscode.workspace.onDidCloseTextDocument((document) => void (this.discovery && document.uri.scheme === 'file' && this.fromDisk(document.uri))),
    );
    for (const document of vscode.workspace.textDocuments) this.fromDocument(document);
  }

  /** Every request file of the workspace, then watched for changes (once). */
  discover(): Promise<void> {
    this.discovery ??= this.searchAndWatch();
    return this.discovery;
  }

  private async searchAndWatch(): Promise<void> {
    const watcher = vscode.workspace.createFileSystemWatcher(REQUEST_FILE_GLOB);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => void this.fromDisk(uri)),
      watcher.onDidChange((uri) => void this.fromDisk(uri)),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
    );
    const uris = await vscode.workspace.findFiles(REQUEST_FILE_GLOB, EXCLUDED);
    await Promise.all(uris.map((uri) => this.fromDisk(uri)));
  }

  /** The file as the editor holds it (unsaved edits included) when open, else as on disk. */
  async fromDisk(uri: vscode.Uri): Promise<void> {
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    if (open) return this.fromDocument(open);
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      this.update(uri, parseRequestFile(new TextDecoder().decode(bytes)));
    } catch {
      // Gone before it could be read: its deletion removes it.
    }
  }

  fromDocument(document: vscode.TextDocument): void {
    if (!isRequestDocument(document) || (document.uri.scheme !== 'file' && document.uri.scheme !== 'untitled')) return;
    this.update(document.uri, this.parsed.get(document));
  }

  /** The file's item and its children as `file` has them now (a test's tenants as its children); no item when it has no tests. */
  update(uri: vscode.Uri, file: ParsedFile): vscode.TestItem | undefined {
    const id = uri.toString();
    const tests = testCasesOf(file);
    if (tests.length === 0) {
      this.controller.items.delete(id);
      return undefined;
    }
    const item = this.controller.items.get(id) ?? this.controller.createTestItem(id, uri.path.split('/').pop() ?? id, uri);
    const folder = vscode.workspace.asRelativePath(uri, false).split('/').slice(0, -1).join('/');
    item.description = folder || undefined;
    item.children.replace(
      tests.map((test) => {
        const request = file.requests[test.index];
        const child = item.children.get(test.id) ?? this.controller.createTestItem(test.id, test.label, uri);
        child.range = new vscode.Range(test.requestLine, 0, test.endLine, 0);
        child.description = l10n.byCount(test.assertions, l10n.t('1 assertion'), l10n.t('{0} assertions', test.assertions));
        child.tags = request.tags.map((tag) => new vscode.TestTag(tag));
        child.children.replace(this.tenantsOf(file, test.index).map((tenant) => this.tenantItem(child, tenant, uri)));
        return child;
      }),
    );
    this.controller.items.add(item);
    return item;
  }

  /** The tenants a test names as a list (`# @tenant RC-MI, RC-TO`, or `*` once the tenants are known); none for one tenant. */
  private tenantsOf(file: ParsedFile, index: number): string[] {
    const written = tenantOf(file, file.requests[index]);
    if (!written || written.includes('{{')) return [];
    const tenants = splitTenants(written);
    if (tenants.length < 2 && !tenants.includes(EVERY_TENANT)) return [];
    return tenants.flatMap((tenant) => (tenant === EVERY_TENANT ? (this.knownTenants() ?? []).filter((known) => known.usable).map((known) => known.codiceAmbienteDati || known.id) : [tenant]));
  }

  /** A test's child for one tenant (created when a run reaches a tenant the tree did not list yet). */
  tenantItem(test: vscode.TestItem, tenant: string, uri: vscode.Uri): vscode.TestItem {
    const id = tenantItemId(tenant);
    const existing = test.children.get(id);
    if (existing) return existing;
    const child = this.controller.createTestItem(id, tenant, uri);
    child.range = test.range;
    child.tags = test.tags;
    test.children.add(child);
    return child;
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/** A tenant child's id under its test: `tenant:RC-MI`. */
export function tenantItemId(tenant: string): string {
  return `tenant:${tenant.toLowerCase()}`;
}

/** The tenant a child of a test stands for, when it is one. */
export function tenantOfItem(item: vscode.TestItem): string | undefined {
  return item.id.startsWith('tenant:') ? item.label : undefined;
}
