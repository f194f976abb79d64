// Client of the runner's driver (test/vscode/runner/driverServer.ts), for tests in the extension host:
// the real browser that shows the workbench, and the sign-in robot in it.
// The runner puts the driver's address in TENANT_API_TEST_DRIVER; under test:electron there is none.
import * as http from 'node:http';

export const driverVariable = 'TENANT_API_TEST_DRIVER';

/** A Playwright selector ('.class', 'text=Allow', 'role=button[name="Sign In"]'), or exact visible text. */
export type Target = string | { selector: string } | { text: string; exact?: boolean };
/** 'workbench' (default), 'last' (newest page), an index into pages(), or part of a page's URL. */
export type PageRef = 'workbench' | 'last' | number | string;

export interface PageInfo {
  index: number;
  url: string;
  title: string;
  workbench: boolean;
}

export interface RobotEvent {
  seq: number;
  at: string;
  action:
    | 'opened' | 'page' | 'navigationFailed' | 'proxyRewrite' | 'ignored' | 'noCredentials' | 'filledSignIn'
    | 'signInRepeated' | 'approvedConsent' | 'needUserCode' | 'filledUserCode' | 'confirmedDevice'
    | 'errorPage' | 'donePage' | 'unknownPage' | 'callback' | 'error' | 'authorize' | (string & {});
  url: string;
  detail?: string;
}

export class DriverError extends Error {}

function driverUrl(): string {
  const url = process.env[driverVariable];
  if (!url) throw new DriverError(`${driverVariable} is not set: browser driving needs the code-server runner (npm run test:vscode)`);
  return url;
}

function call<T>(command: string, body: object = {}, timeoutMs = 30_000): Promise<T> {
  const url = new URL(`${driverUrl()}/${command}`);
  const data = JSON.stringify(body);
  return new Promise<T>((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }, timeout: timeoutMs + 15_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          let parsed: { result?: T; error?: string };
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return reject(new DriverError(`driver ${command}: not JSON (status ${response.statusCode})`));
          }
          if (response.statusCode === 200) resolve(parsed.result as T);
          else reject(new DriverError(`driver ${command}: ${parsed.error ?? `status ${response.statusCode}`}`));
        });
      },
    );
    request.on('timeout', () => request.destroy(new DriverError(`driver ${command}: no answer in time`)));
    request.on('error', (error) => reject(error instanceof DriverError ? error : new DriverError(`driver ${command}: ${error.message}`)));
    request.end(data);
  });
}

function targetBody(target: Target): object {
  return typeof target === 'string' ? { selector: target } : target;
}

export const driver = {
  /** True when the runner's browser can be driven (npm run test:vscode); false under test:electron. */
  available(): boolean {
    return Boolean(process.env[driverVariable]);
  },
  info(): Promise<{ browserVersion: string; vscodeVersion: string; workbenchUrl: string; repoRoot: string }> {
    return call('info');
  },
  pages(): Promise<PageInfo[]> {
    return call('pages');
  },
  /** Opens a URL in a new tab of the runner's browser (the robot watches it); resolves with its page index. */
  async open(url: string, options: { timeoutMs?: number } = {}): Promise<number> {
    return (await call<{ index: number }>('open', { url, ...options }, options.timeoutMs)).index;
  },
  /** Closes every page but the workbench; resolves with how many were closed (a page that will not close within 5 s is left). */
  async closePages(): Promise<number> {
    return (await call<{ closed: number }>('closePages')).closed;
  },
  /**
   * Saves a PNG and resolves with its absolute path. A bare name ('sidebar') goes to
   * test/vscode/screenshots/sidebar.png (git-ignored); a path with a slash is relative to the
   * repository ('media/screenshot-sidebar.png'). `selector` crops to one element.
   */
  async screenshot(file: string, options: { selector?: string; page?: PageRef; fullPage?: boolean; timeoutMs?: number } = {}): Promise<string> {
    return (await call<{ path: string }>('screenshot', { path: file, ...options }, options.timeoutMs)).path;
  },
  /** `button: 'right'` opens a context menu (a tree item's, the editor's). */
  async click(target: Target, options: { page?: PageRef; timeoutMs?: number; button?: 'left' | 'right' } = {}): Promise<void> {
    await call('click', { ...targetBody(target), ...options }, options.timeoutMs);
  },
  async waitFor(target: Target, options: { page?: PageRef; timeoutMs?: number; state?: 'visible' | 'hidden' | 'attached' | 'detached' } = {}): Promise<void> {
    await call('waitFor', { ...targetBody(target), ...options }, options.timeoutMs);
  },
  async count(selector: string, options: { page?: PageRef } = {}): Promise<number> {
    return (await call<{ count: number }>('count', { selector, ...options })).count;
  },
  async text(target: Target, options: { page?: PageRef; timeoutMs?: number } = {}): Promise<string> {
    return (await call<{ text: string }>('text', { ...targetBody(target), ...options }, options.timeoutMs)).text;
  },
  /** What an input box holds. */
  async value(target: Target, options: { page?: PageRef; timeoutMs?: number } = {}): Promise<string> {
    return (await call<{ value: string }>('value', { ...targetBody(target), ...options }, options.timeoutMs)).value;
  },
  /**
   * Playwright key names: 'Enter', 'Escape', 'Control+Shift+P', 'F1'; several are pressed in turn.
   * `on`: the element that takes them (focused first; an error when it is not there within `timeoutMs`).
   */
  async press(keys: string | string[], options: { page?: PageRef; on?: string; timeoutMs?: number } = {}): Promise<void> {
    const { on, ...rest } = options;
    await call('press', { keys, ...rest, ...(on ? { selector: on } : {}) }, options.timeoutMs);
  },
  async type(text: string, options: { page?: PageRef; delayMs?: number } = {}): Promise<void> {
    await call('type', { text, ...options });
  },
  /**
   * In a test run VS Code shows no modal dialog: it accepts confirm() itself and refuses prompt()
   * ("DialogService: refused to show dialog in tests"; a modal showInformationMessage rejects, and so
   * does getSession(..., { createIfNone: true }), whose "wants to sign in" question is a prompt).
   * showDialogs(true) makes the workbench show them for real, to be answered with clickDialogButton;
   * turn it off again (afterEach), or a later dialog waits for a click that never comes.
   */
  async showDialogs(on: boolean): Promise<void> {
    await call('showDialogs', { on });
  },
  /** Clicks a button of the workbench's modal dialog; resolves with the dialog's message. See showDialogs. */
  async clickDialogButton(label: string, options: { timeoutMs?: number } = {}): Promise<string> {
    return (await call<{ message: string }>('dialogButton', { label, ...options }, options.timeoutMs)).message;
  },
  /**
   * Clicks a button on a notification toast (non-modal showInformationMessage/showWarningMessage items):
   * with `message` (part of its text), on the notification that says it, else on the first with that button.
   */
  async clickNotificationButton(label: string, options: { timeoutMs?: number; message?: string } = {}): Promise<void> {
    await call('notificationButton', { label, ...options }, options.timeoutMs);
  },
  /** The messages of the notification toasts on screen. */
  notifications(): Promise<string[]> {
    return call('notifications');
  },
  robot: {
    /** Sign in with these on the next sign-in pages (mode back to 'signIn'); consent is approved unless told not to. */
    async setCredentials(credentials: { username: string; password: string }, options: { approveConsent?: boolean } = {}): Promise<void> {
      await call('robot/setCredentials', { ...credentials, ...options });
    },
    /**
     * The device flow's user code: the robot types it on the verification page (/connect/device), then
     * confirms and signs in with the credentials. A page that asked before the code was set gets it now.
     */
    async setUserCode(userCode: string): Promise<void> {
      await call('robot/setUserCode', { userCode });
    },
    /** Leave sign-in pages alone (for cancel and time-out tests). */
    async ignore(): Promise<void> {
      await call('robot/setMode', { mode: 'ignore' });
    },
    /** No credentials, mode 'signIn', events forgotten. */
    async reset(): Promise<void> {
      await call('robot/reset');
    },
    events(since = 0): Promise<RobotEvent[]> {
      return call('robot/events', { since });
    },
    /** The newest event's seq (0 when none since the start): pass it as `since` to wait only for what follows. */
    async lastSeq(): Promise<number> {
      return (await call<{ seq: number }>('robot/lastSeq')).seq;
    },
    /** Resolves with the first event of one of `actions` after `since`; rejects, listing what it saw, after the time limit. */
    waitFor(actions: string | string[], options: { since?: number; timeoutMs?: number } = {}): Promise<RobotEvent> {
      const timeoutMs = options.timeoutMs ?? 30_000;
      return call('robot/waitFor', { actions: Array.isArray(actions) ? actions : [actions], since: options.since ?? 0, timeoutMs }, timeoutMs);
    },
  },
};
