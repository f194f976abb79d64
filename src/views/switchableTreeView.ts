import * as vscode from 'vscode';

/**
 * A tree view that outlives the environment its data comes from: the view is created once, and each
 * environment attaches its own data provider (detached when that environment's parts are disposed).
 * Disposing and re-creating a TreeView with the same id races with the workbench, which still asks the
 * old one ("No tree view with id ... registered") and can leave the view empty.
 */
export class SwitchableTreeView<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  readonly view: vscode.TreeView<T>;
  private provider: vscode.TreeDataProvider<T> | undefined;
  private readonly changes = new vscode.EventEmitter<T | T[] | undefined | void>();
  readonly onDidChangeTreeData = this.changes.event;

  constructor(id: string, options: { showCollapseAll?: boolean } = {}) {
    this.view = vscode.window.createTreeView(id, { treeDataProvider: this, ...options });
  }

  /** Shows this provider's tree from now on, until the returned disposable is disposed. */
  attach(provider: vscode.TreeDataProvider<T>): vscode.Disposable {
    this.provider = provider;
    const forwarding = provider.onDidChangeTreeData?.((change) => this.changes.fire(change ?? undefined));
    this.changes.fire();
    return {
      dispose: () => {
        forwarding?.dispose();
        if (this.provider !== provider) return;
        this.provider = undefined;
        this.view.description = undefined;
        this.changes.fire();
      },
    };
  }

  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    if (!this.provider) return new vscode.TreeItem('');
    return this.provider.getTreeItem(element);
  }

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    return this.provider ? this.provider.getChildren(element) : [];
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.provider?.getParent?.(element);
  }

  dispose(): void {
    this.changes.dispose();
    this.view.dispose();
  }
}
