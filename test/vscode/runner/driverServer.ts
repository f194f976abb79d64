// The driver: a small JSON-over-HTTP server on 127.0.0.1 through which tests running in the extension
// host reach the runner's browser (screenshots, clicks, keys, the sign-in robot). Its address goes to
// the extension host in the TENANT_API_TEST_DRIVER environment variable (see suite/helpers/driver.ts).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { showDialogsGlobal } from './codeServerPatch';
import { briefError } from './playwrightErrors';
import { repoRoot, screenshotsDir } from './paths';
import type { RobotCredentials, RobotMode, SignInRobot } from './robot';

export interface DriverTarget {
  context: BrowserContext;
  workbench: Page;
  robot: SignInRobot;
  browserVersion: string;
  vscodeVersion: string;
}

type Body = Record<string, unknown>;
type Handler = (body: Body, target: DriverTarget) => Promise<unknown>;

const defaultTimeoutMs = 10_000;

/** Pages that did not close within closePages' time once. */
const stuckPages = new WeakSet<Page>();

function str(body: Body, key: string, required = true): string {
  const value = body[key];
  if (typeof value === 'string' && value.length > 0) return value;
  if (required) throw new DriverError(`"${key}" (a non-empty string) is required`);
  return '';
}

function num(body: Body, key: string, fallback: number): number {
  const value = body[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

class DriverError extends Error {}

/** `page`: 'workbench' (default), 'last' (newest page), an index into pages(), or part of a page's URL. */
function pageOf(body: Body, target: DriverTarget): Page {
  const which = body.page;
  const pages = target.context.pages();
  if (which === undefined || which === 'workbench') return target.workbench;
  if (which === 'last') return pages[pages.length - 1];
  if (typeof which === 'number') {
    const page = pages[which];
    if (!page) throw new DriverError(`no page ${which}; there are ${pages.length}`);
    return page;
  }
  if (typeof which === 'string') {
    const page = pages.find((candidate) => candidate.url().includes(which));
    if (!page) throw new DriverError(`no page whose URL contains "${which}"`);
    return page;
  }
  throw new DriverError('"page" must be a number or a string');
}

/** Relative paths are under the repository; a bare name goes to test/vscode/screenshots/<name>.png. */
function screenshotPath(raw: string): string {
  let file = raw;
  if (!file.includes('/')) file = path.join(screenshotsDir, file);
  file = path.resolve(repoRoot, file);
  if (!file.endsWith('.png')) file += '.png';
  const relative = path.relative(repoRoot, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new DriverError(`screenshots go inside the repository, not to ${raw}`);
  return file;
}

function locatorOf(body: Body, page: Page) {
  const selector = str(body, 'selector', false);
  const text = str(body, 'text', false);
  if (selector) return page.locator(selector).first();
  if (text) return page.getByText(text, { exact: body.exact !== false }).first();
  throw new DriverError('"selector" or "text" is required');
}

const handlers: Record<string, Handler> = {
  async info(_body, target) {
    return {
      browserVersion: target.browserVersion,
      vscodeVersion: target.vscodeVersion,
      workbenchUrl: target.workbench.url(),
      repoRoot,
    };
  },
  async pages(_body, target) {
    return Promise.all(
      target.context.pages().map(async (page, index) => ({
        index,
        url: page.url(),
        title: await page.title().catch(() => ''),
        workbench: page === target.workbench,
      })),
    );
  },
  async open(body, target) {
    const page = await target.context.newPage();
    await page.goto(str(body, 'url'), { timeout: num(body, 'timeoutMs', 30_000) }).catch((error: Error) => {
      throw new DriverError(`could not open the page: ${briefError(error.message)}`);
    });
    return { index: target.context.pages().indexOf(page) };
  },
  async closePages(_body, target) {
    const others = target.context.pages().filter((page) => page !== target.workbench);
    // A page stuck in navigation or unload can make close() wait forever: give each a few seconds,
    // once. One that stayed stuck is asked again but not waited for: it would cost every later test's
    // afterEach those seconds again (seen under load: 17 x 5 s in one editor).
    const results = await Promise.all(
      others.map((page) =>
        Promise.race([
          page.close({ runBeforeUnload: false }).then(() => true, () => false),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), stuckPages.has(page) ? 100 : 5000)),
        ]),
      ),
    );
    const stuck = others.filter((_, index) => !results[index]);
    for (const page of stuck) stuckPages.add(page);
    // The editor's page in front again, as a user sees it once the other tabs are closed: a page behind
    // another (a stuck one) is not rendered, and its notifications never show (seen under load).
    await target.workbench.bringToFront().catch(() => undefined);
    return { closed: results.filter(Boolean).length, stuck: stuck.map((page) => page.url()) };
  },
  async screenshot(body, target) {
    const file = screenshotPath(str(body, 'path'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const page = pageOf(body, target);
    const selector = str(body, 'selector', false);
    if (selector) await page.locator(selector).first().screenshot({ path: file, timeout: num(body, 'timeoutMs', defaultTimeoutMs) });
    else await page.screenshot({ path: file, fullPage: body.fullPage === true });
    return { path: file };
  },
  async click(body, target) {
    const button = str(body, 'button', false) || 'left';
    if (button !== 'left' && button !== 'right') throw new DriverError('button is "left" or "right"');
    await locatorOf(body, pageOf(body, target)).click({ button, timeout: num(body, 'timeoutMs', defaultTimeoutMs) });
    return {};
  },
  async waitFor(body, target) {
    const state = (str(body, 'state', false) || 'visible') as 'visible' | 'hidden' | 'attached' | 'detached';
    await locatorOf(body, pageOf(body, target)).waitFor({ state, timeout: num(body, 'timeoutMs', defaultTimeoutMs) });
    return {};
  },
  async count(body, target) {
    return { count: await pageOf(body, target).locator(str(body, 'selector')).count() };
  },
  async text(body, target) {
    return { text: await locatorOf(body, pageOf(body, target)).innerText({ timeout: num(body, 'timeoutMs', defaultTimeoutMs) }) };
  },
  async value(body, target) {
    return { value: await locatorOf(body, pageOf(body, target)).inputValue({ timeout: num(body, 'timeoutMs', defaultTimeoutMs) }) };
  },
  async press(body, target) {
    const keys = Array.isArray(body.keys) ? body.keys.map(String) : [str(body, 'keys')];
    const page = pageOf(body, target);
    // On an element: focused first, in the same step, so a key never lands where the focus moved meanwhile.
    const on = str(body, 'selector', false) ? locatorOf(body, page) : undefined;
    for (const key of keys) await (on ? on.press(key, { timeout: num(body, 'timeoutMs', defaultTimeoutMs) }) : page.keyboard.press(key));
    return {};
  },
  async type(body, target) {
    await pageOf(body, target).keyboard.type(str(body, 'text'), { delay: num(body, 'delayMs', 0) });
    return {};
  },
  /**
   * Real dialogs in a test run on (true) or off (false, VS Code's own behaviour: confirm() accepted,
   * prompt() refused). Needs the workbench patch in codeServerPatch.ts.
   */
  async showDialogs(body, target) {
    const on = body.on === true;
    await target.workbench.evaluate(([name, value]) => {
      (globalThis as Record<string, unknown>)[name as string] = value;
    }, [showDialogsGlobal, on] as const);
    return { on };
  },
  /** Clicks a button of the workbench's modal dialog (shown in a test run only after showDialogs(true)). */
  async dialogButton(body, target) {
    const label = str(body, 'label');
    const dialog = target.workbench.locator('.monaco-dialog-box');
    const timeout = num(body, 'timeoutMs', defaultTimeoutMs);
    await dialog.first().waitFor({ state: 'visible', timeout });
    // The dialog's text without its buttons' labels: the message and its detail.
    const labels = new Set((await dialog.first().locator('.monaco-button').allInnerTexts().catch(() => [] as string[])).map((text) => text.trim()));
    const message = (await dialog.first().innerText().catch(() => ''))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !labels.has(line))
      .join('\n');
    const button = dialog.locator('.dialog-buttons .monaco-button', { hasText: label }).first();
    await button.click({ timeout }).catch(async (error: Error) => {
      const labels = await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts().catch(() => []);
      throw new DriverError(`no button "${label}" in the dialog "${message}" (buttons: ${labels.join(', ')}): ${briefError(error.message)}`);
    });
    return { message };
  },
  /** Clicks a button of a notification toast (e.g. "Set Licence Key" on a message the extension shows). */
  async notificationButton(body, target) {
    const label = str(body, 'label');
    const message = str(body, 'message', false);
    const timeout = num(body, 'timeoutMs', defaultTimeoutMs);
    const toasts = target.workbench.locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item');
    // With `message`, the button of the notification that says it, not the first one with that label.
    const owner = message ? toasts.filter({ has: target.workbench.locator('.notification-list-item-message', { hasText: message }) }) : toasts;
    const button = owner.locator('.monaco-button', { hasText: label }).first();
    await button.click({ timeout }).catch(async (error: Error) => {
      const messages = await toasts.locator('.notification-list-item-message').allInnerTexts().catch(() => []);
      throw new DriverError(`no notification button "${label}"${message ? ` on "${message}"` : ''} (notifications: ${messages.join(' | ') || 'none'}): ${briefError(error.message)}`);
    });
    return {};
  },
  /** The texts of the notifications on screen. */
  async notifications(_body, target) {
    return target.workbench.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
  },
  async 'robot/setCredentials'(body, target) {
    target.robot.setCredentials({ username: str(body, 'username'), password: str(body, 'password') } satisfies RobotCredentials);
    if (typeof body.approveConsent === 'boolean') target.robot.setApproveConsent(body.approveConsent);
    return {};
  },
  async 'robot/setUserCode'(body, target) {
    target.robot.setUserCode(str(body, 'userCode'));
    return {};
  },
  async 'robot/setMode'(body, target) {
    const mode = str(body, 'mode');
    if (mode !== 'signIn' && mode !== 'ignore') throw new DriverError('mode is "signIn" or "ignore"');
    target.robot.setMode(mode as RobotMode);
    return {};
  },
  async 'robot/reset'(_body, target) {
    target.robot.reset();
    return {};
  },
  async 'robot/lastSeq'(_body, target) {
    return { seq: target.robot.lastSeq() };
  },
  async 'robot/events'(body, target) {
    return target.robot.events(num(body, 'since', 0));
  },
  async 'robot/waitFor'(body, target) {
    const actions = Array.isArray(body.actions) ? body.actions.map(String) : [str(body, 'action')];
    const event = await target.robot.waitForEvent(actions, num(body, 'since', 0), num(body, 'timeoutMs', 30_000));
    if (!event) {
      const seen = target.robot.events(num(body, 'since', 0)).map((e) => `${e.action} ${e.url}`).join('; ') || 'nothing';
      throw new DriverError(`the robot did not report ${actions.join(' or ')} in time; it saw: ${seen}`);
    }
    return event;
  },
};

export interface DriverServer {
  /** http://127.0.0.1:<port>/<token> : what TENANT_API_TEST_DRIVER carries. */
  url: string;
  attach(target: DriverTarget): void;
  close(): Promise<void>;
}

export async function startDriverServer(log: (line: string) => void): Promise<DriverServer> {
  // A random path segment, so that only whoever got the variable can drive the browser.
  const token = randomBytes(12).toString('hex');
  let target: DriverTarget | undefined;
  const server = http.createServer((request, response) => {
    const reply = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    const prefix = `/${token}/`;
    if (request.method !== 'POST' || !request.url?.startsWith(prefix)) return reply(404, { error: 'unknown driver path' });
    const name = request.url.slice(prefix.length);
    const handler = handlers[name];
    if (!handler) return reply(404, { error: `unknown driver command "${name}"; known: ${Object.keys(handlers).join(', ')}` });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: Body;
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body) : {};
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not an object');
      } catch {
        return reply(400, { error: 'the body must be a JSON object' });
      }
      if (!target) return reply(503, { error: 'the browser is not ready yet' });
      const started = Date.now();
      handler(body, target).then(
        (result) => {
          if (name !== 'robot/waitFor' && name !== 'robot/events') log(`[driver] ${name} ok (${Date.now() - started} ms)`);
          reply(200, { result });
        },
        (error: Error) => {
          const message = briefError(error.message);
          log(`[driver] ${name} failed: ${message}`);
          reply(error instanceof DriverError ? 400 : 500, { error: message });
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/${token}`,
    attach(value) {
      target = value;
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
