// The browser robot: plays the user on OAuth sign-in pages that the extension opens in the runner's
// browser (vscode.env.openExternal in code-server opens a new tab). It fills in the sandbox's form
// (fields `username` and `password`), submits it, approves a consent page, and lets the redirect go
// back to code-server's /callback URL, which hands the URI to the extension's UriHandler.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { briefError } from './playwrightErrors';

export type RobotMode = 'signIn' | 'ignore';

export interface RobotCredentials {
  username: string;
  password: string;
}

export interface RobotEvent {
  /** Sequence number, from 1. */
  seq: number;
  at: string;
  /** What the robot saw or did: 'page', 'proxyRewrite', 'ignored', 'noCredentials', 'filledSignIn',
   *  'signInRepeated', 'approvedConsent', 'needUserCode', 'filledUserCode', 'confirmedDevice',
   *  'errorPage' (an error shown on a sign-in page), 'donePage' (a sign-in page without a form, such as
   *  "sign-in complete"), 'unknownPage', 'callback', 'navigationFailed', 'opened', 'error', and
   *  'authorize' (the browser requested the authorization endpoint; its URL keeps the visible parameters,
   *  acr_values among them, before any redirect to the sign-in page hides them). */
  action: string;
  /** The page's URL with query values redacted (names kept; a few harmless values kept). */
  url: string;
  detail?: string;
}

/** Query parameters whose values are harmless to log; every other value is redacted. */
const visibleParams = new Set([
  'client_id', 'redirect_uri', 'response_type', 'scope', 'prompt', 'acr_values', 'ui_locales', 'login_hint',
  'error', 'error_description', 'code_challenge_method', 'vscode-scheme', 'vscode-authority', 'vscode-path',
]);

function pathOf(raw: string): string {
  try {
    return new URL(raw).pathname;
  } catch {
    return '';
  }
}

export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    for (const [name] of [...url.searchParams]) {
      if (!visibleParams.has(name)) url.searchParams.set(name, '***');
    }
    return url.toString();
  } catch {
    return raw.replace(/\?.*$/, '?***');
  }
}

const signInPath = /\/connect\/authorize\b|\/interaction\/|\/connect\/device\b|\/device\b/;
const devicePath = /\/device\b/;
const authorizePath = /\/connect\/authorize$/;
/** Forms that cancel: never the robot's choice. */
const cancelForm = /abort|deny|cancel|reject/i;
const callbackPath = /(^|\/)callback$/;
const consentButtonText = /continue|allow|authori[sz]e|accept|approve|consent|yes|confirm|consenti|autorizza|continua|prosegui/i;

export interface RobotOptions {
  /** code-server's port: URLs under its /proxy/<port>/ are sign-in pages tunnelled through it. */
  codeServerPort: number;
  /** Pages the robot must never touch (the workbench). */
  isIgnoredPage: (page: Page) => boolean;
  log: (line: string) => void;
}

export class SignInRobot {
  private mode: RobotMode = 'signIn';
  private credentials: RobotCredentials | undefined;
  private approveConsent = true;
  private userCode: string | undefined;
  /** Device pages that asked for a user code before the test gave one. */
  private readonly waitingForCode = new Set<Page>();
  private readonly history: RobotEvent[] = [];
  /** Never reset, so that a `since` taken before reset() stays meaningful. */
  private seq = 0;
  private readonly waiters = new Set<() => void>();
  private readonly attempts = new WeakMap<Page, number>();
  private readonly queues = new WeakMap<Page, Promise<void>>();

  constructor(private readonly context: BrowserContext, private readonly options: RobotOptions) {
    context.on('page', (page) => this.watch(page));
    // Registered on the context: a popup's first navigation can fail before its 'page' event arrives.
    context.on('requestfailed', (request) => {
      if (!request.isNavigationRequest()) return;
      try {
        const frame = request.frame();
        if (frame !== frame.page().mainFrame() || options.isIgnoredPage(frame.page())) return;
      } catch {
        // The popup's frame does not exist yet: still worth reporting.
      }
      this.record('navigationFailed', request.url(), request.failure()?.errorText);
    });
    context.on('request', (request) => {
      if (!request.isNavigationRequest() || !authorizePath.test(pathOf(request.url()))) return;
      this.record('authorize', request.url(), 'the browser asked the authorization endpoint');
    });
  }

  setCredentials(credentials: RobotCredentials | undefined): void {
    this.credentials = credentials;
    this.mode = 'signIn';
  }

  setMode(mode: RobotMode): void {
    this.mode = mode;
  }

  /** The device flow's user code, typed on the verification page; pages already waiting for it get it now. */
  setUserCode(code: string | undefined): void {
    this.userCode = code;
    if (!code) return;
    for (const page of [...this.waitingForCode]) {
      this.waitingForCode.delete(page);
      if (!page.isClosed()) this.enqueue(page, true);
    }
  }

  setApproveConsent(approve: boolean): void {
    this.approveConsent = approve;
  }

  /** Forgets credentials and events, back to 'signIn' mode with no credentials. */
  reset(): void {
    this.credentials = undefined;
    this.userCode = undefined;
    this.waitingForCode.clear();
    this.mode = 'signIn';
    this.approveConsent = true;
    this.history.length = 0;
  }

  lastSeq(): number {
    return this.seq;
  }

  events(since = 0): RobotEvent[] {
    return this.history.filter((event) => event.seq > since);
  }

  /** Resolves with the first event of one of `actions` after `since`, or undefined after the time limit. */
  async waitForEvent(actions: string[], since: number, timeoutMs: number): Promise<RobotEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.history.find((event) => event.seq > since && actions.includes(event.action));
      if (found) return found;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, remaining);
        this.waiters.add(wake);
      });
    }
  }

  private record(action: string, url: string, detail?: string): void {
    const event: RobotEvent = { seq: ++this.seq, at: new Date().toISOString(), action, url: redactUrl(url), detail };
    this.history.push(event);
    if (this.history.length > 500) this.history.splice(0, this.history.length - 500);
    this.options.log(`[robot] ${action} ${event.url}${detail ? ` (${detail})` : ''}`);
    for (const wake of [...this.waiters]) wake();
  }

  private watch(page: Page): void {
    if (this.options.isIgnoredPage(page)) return;
    this.record('opened', page.url(), 'a new page in the browser');
    let sawLoad = false;
    page.on('domcontentloaded', () => {
      sawLoad = true;
      this.enqueue(page);
    });
    // A popup may have finished loading before we were told about it.
    void page.waitForLoadState('domcontentloaded').then(() => {
      if (!sawLoad) this.enqueue(page);
    }, () => undefined);
  }

  private enqueue(page: Page, again = false): void {
    const url = page.url();
    const previous = this.queues.get(page) ?? Promise.resolve();
    const next = previous.then(() => (page.isClosed() || page.url() !== url ? undefined : this.handle(page, url, again)));
    this.queues.set(page, next.catch((error: Error) => this.record('error', url, briefError(error.message))));
  }

  private async submitForm(field: Locator): Promise<void> {
    const form = field.locator('xpath=ancestor::form[1]');
    const submit = form.locator('button[type="submit"], input[type="submit"], button:not([type])').first();
    if ((await submit.count()) > 0) await submit.click();
    else await field.press('Enter');
  }

  private async handle(page: Page, raw: string, again = false): Promise<void> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;

    // code-server's asExternalUri/openExternal turns http://127.0.0.1:<p>/x into its own port proxy
    // http://127.0.0.1:<cs>/proxy/<p>/x, because it assumes a loopback port is on the remote machine.
    // An authorization server's pages break behind that proxy (absolute form actions and redirects,
    // cookies on another origin), and a real one on the internet would never be proxied: only
    // loopback URLs are. The sandbox and the browser share this machine, so go to it directly.
    const proxied = /^\/(?:abs)?proxy\/(\d+)(\/.*)?$/.exec(url.pathname);
    if (proxied && Number(url.port) === this.options.codeServerPort && signInPath.test(proxied[2] ?? '/')) {
      const direct = `http://127.0.0.1:${proxied[1]}${proxied[2] ?? '/'}${url.search}`;
      this.record('proxyRewrite', raw, `to ${redactUrl(direct)}`);
      await page.goto(direct);
      return;
    }

    if (Number(url.port) === this.options.codeServerPort && callbackPath.test(url.pathname)) {
      this.record('callback', raw);
      return;
    }

    if (!signInPath.test(url.pathname)) {
      if (!again) this.record('page', raw);
      return;
    }
    if (this.mode === 'ignore') {
      this.record('ignored', raw, 'mode ignore: leaving the sign-in page alone');
      return;
    }

    // The device flow's verification page: a visible user_code field to fill in, then a confirmation.
    const codeInput = page.locator('input[name="user_code"]:not([type="hidden"])');
    if (devicePath.test(url.pathname) && (await codeInput.count()) > 0) {
      const current = await codeInput.first().inputValue();
      if (!current && !this.userCode) {
        this.waitingForCode.add(page);
        this.record('needUserCode', raw, 'a device code page: waiting for driver.robot.setUserCode(code)');
        return;
      }
      if (!current) await codeInput.first().fill(this.userCode!);
      this.record('filledUserCode', raw, current ? 'code already filled in' : 'typed the user code');
      await this.submitForm(codeInput.first());
      return;
    }

    const password = page.locator('input[name="password"]');
    if ((await password.count()) > 0) {
      if (!this.credentials) {
        this.record('noCredentials', raw, 'a sign-in form, but no credentials were set (driver.robot.setCredentials)');
        return;
      }
      const attempt = (this.attempts.get(page) ?? 0) + 1;
      this.attempts.set(page, attempt);
      if (attempt > 3) {
        this.record('signInRepeated', raw, 'the sign-in form came back 3 times: credentials refused? leaving it');
        return;
      }
      const form = password.first().locator('xpath=ancestor::form[1]');
      const username = form.locator('input[name="username"], input[name="login"]').first();
      await username.fill(this.credentials.username);
      await password.first().fill(this.credentials.password);
      // The sandbox's page names the tenant it was asked for (acr_values tenant:<id>) in #tenant.
      const tenantNote = page.locator('#tenant');
      const tenant = (await tenantNote.count()) > 0 ? (await tenantNote.first().innerText().catch(() => '')).replace(/\s+/g, ' ').trim() : '';
      this.record('filledSignIn', raw, `username ${this.credentials.username}, attempt ${attempt}${tenant ? `, page names tenant: ${tenant}` : ''}`);
      await this.submitForm(password.first());
      return;
    }

    const submits = page.locator('form button[type="submit"], form input[type="submit"], form button:not([type])');
    const count = await submits.count();
    if (count > 0 && this.approveConsent) {
      let chosen: Locator | undefined;
      let fallback: Locator | undefined;
      for (let index = 0; index < count; index++) {
        const candidate = submits.nth(index);
        const form = candidate.locator('xpath=ancestor::form[1]');
        const formSays = `${(await form.getAttribute('action').catch(() => '')) ?? ''} ${(await form.getAttribute('id').catch(() => '')) ?? ''}`;
        const label = (await candidate.innerText().catch(() => '')) || (await candidate.getAttribute('value')) || '';
        const name = (await candidate.getAttribute('name')) ?? '';
        if (cancelForm.test(formSays) || cancelForm.test(name) || /^(cancel|deny|abort|annulla|nega|rifiuta)$/i.test(label.trim())) continue;
        fallback ??= candidate;
        if (consentButtonText.test(label)) {
          chosen = candidate;
          break;
        }
      }
      chosen ??= fallback;
      if (chosen) {
        const label = (await chosen.innerText().catch(() => '')) || (await chosen.getAttribute('value')) || '';
        this.record(devicePath.test(url.pathname) ? 'confirmedDevice' : 'approvedConsent', raw, `clicked "${label.trim()}"`);
        await chosen.click();
        return;
      }
    }

    const text = (await page.locator('body').innerText().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 300);
    if ((await page.locator('#error, [role="alert"], .error').count()) > 0) this.record('errorPage', raw, text);
    else if ((await page.locator('form').count()) === 0) this.record('donePage', raw, text);
    else this.record('unknownPage', raw, `no form the robot knows; page says: ${text}`);
  }
}
