/** What every node of the Tenants view shares, whichever model made it (tenants, catalogues). No `vscode` here. */

export interface NodeAction {
  command: string;
  title: string;
  args?: unknown[];
}

export interface MessageNode {
  kind: 'message';
  id: string;
  message: string;
  /** Shown beside the message (the error's own words). */
  description?: string;
  icon: 'loading' | 'error' | 'info' | 'warning' | 'sign-in' | 'account';
  tooltip?: string;
  action?: NodeAction;
}

export interface NodePresentation {
  label: string;
  description?: string;
  /** Markdown. */
  tooltip?: string;
  contextValue: string;
  icon: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  command?: NodeAction;
}
