import type { FlowKind, FlowSetting } from '../settings/settingValues';
export type { FlowKind, FlowSetting };

/** Where the extension runs, as far as sign-in cares. */
export interface FlowEnvironment {
  /** vscode.env.uiKind: the editor runs in a desktop app or in a browser tab. */
  uiKind: 'desktop' | 'web';
  /** vscode.env.remoteName: undefined for a local window, 'ssh-remote', 'wsl', 'dev-container', ... */
  remoteName?: string;
  /** vscode.env.uriScheme: 'vscode', 'vscode-insiders', 'code-oss', ... */
  uriScheme: string;
  /** Discovery shows a device authorization endpoint (undefined: not known yet, assume yes). */
  deviceAuthorizationSupported?: boolean;
}

interface FlowCapabilities {
  kind: FlowKind;
  /** Why it can or cannot work here; undefined means it can. */
  unavailableBecause(environment: FlowEnvironment): string | undefined;
}

/**
 * The flow table, in the order "auto" tries them (like VS Code's GitHub sign-in):
 * - uriHandler: the browser redirects to <scheme>://tenant-api.tenant-api-workbench/auth-callback (desktop,
 *   local or remote: the desktop app receives the URI and forwards it to the extension host), or to the
 *   editor's own /callback page in a browser-hosted editor (vscode.env.asExternalUri yields it).
 * - loopback: a one-shot server on 127.0.0.1 of the extension host; the browser must run on that same
 *   machine, so only a local desktop window qualifies.
 * - deviceCode: the user types a code on any device; works everywhere the server offers it.
 */
export const FLOW_TABLE: readonly FlowCapabilities[] = [
  {
    kind: 'uriHandler',
    unavailableBecause: (environment) => (environment.uriScheme ? undefined : 'the editor has no URI scheme for redirects'),
  },
  {
    kind: 'loopback',
    unavailableBecause: (environment) => {
      if (environment.uiKind === 'web') return 'the editor runs in a browser, the extension host is elsewhere';
      if (environment.remoteName) return `the extension host is remote (${environment.remoteName})`;
      return undefined;
    },
  },
  {
    kind: 'deviceCode',
    unavailableBecause: (environment) =>
      environment.deviceAuthorizationSupported === false ? 'the server offers no device authorization endpoint' : undefined,
  },
];

/**
 * The flows to try, in order: for "auto" every flow that can work here; a flow the user chose
 * explicitly is tried even where the table doubts it (for example loopback in a browser-hosted editor
 * that runs on the user's own machine), except the device flow when the server does not offer it.
 */
export function chooseFlows(setting: FlowSetting, environment: FlowEnvironment): FlowKind[] {
  if (setting !== 'auto') {
    return setting === 'deviceCode' && environment.deviceAuthorizationSupported === false ? [] : [setting];
  }
  return FLOW_TABLE.filter((flow) => flow.unavailableBecause(environment) === undefined).map((flow) => flow.kind);
}

/** Why a flow cannot work here (for the message when the user picked one that cannot). */
export function whyUnavailable(kind: FlowKind, environment: FlowEnvironment): string | undefined {
  return FLOW_TABLE.find((flow) => flow.kind === kind)?.unavailableBecause(environment);
}
