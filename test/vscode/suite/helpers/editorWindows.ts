// Several windows of one code-server editor, for suites about what windows share (the local broker,
// the Redis ledger): its User folder (settings, keybindings) and another window loading the extension.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { driver } from './driver';

/** The User folder of this editor's code-server (the runner names its user-data-dir; else the newest run under .vscode-test/runs). */
export function userFolder(): string {
  // Several editors run at once (npm run test:vscode starts three): the newest run may be another one's.
  if (process.env.TENANT_API_TEST_USER_DATA) return path.join(process.env.TENANT_API_TEST_USER_DATA, 'User');
  const runs = path.join(process.env.TENANT_API_TEST_REPO ?? '', '.vscode-test', 'runs');
  const newest = fs
    .readdirSync(runs)
    .map((name) => path.join(runs, name, 'user-data', 'User'))
    .filter((folder) => fs.existsSync(path.join(folder, 'settings.json')))
    .sort((a, b) => fs.statSync(path.join(b, 'settings.json')).mtimeMs - fs.statSync(path.join(a, 'settings.json')).mtimeMs)[0];
  assert.ok(newest, `no code-server user folder under ${runs}`);
  return newest;
}

/** Another window of this editor: the first page's URL without the suite (extensionTestsPath), so it loads the extension only. */
export async function openWindow(): Promise<number> {
  const url = new URL((await driver.info()).workbenchUrl);
  const payload = (JSON.parse(url.searchParams.get('payload') ?? '[]') as Array<[string, string]>).filter(([name]) => name !== 'extensionTestsPath');
  url.searchParams.set('payload', JSON.stringify(payload));
  const page = await driver.open(url.toString(), { timeoutMs: 60_000 });
  await driver.waitFor('.monaco-workbench', { page, timeoutMs: 60_000 });
  return page;
}

/** A status bar item of the extension: shown once it is active in that window. */
const OUR_STATUS_ITEM = '.statusbar-item[id^="tenant-api.tenant-api-workbench."]';

/**
 * Presses `key` (a keybinding of one of the extension's commands) in the window at `page` until the
 * extension is active there (a status bar item of ours shows). In a window whose workspace has no
 * request file the extension starts on its first command; a key pressed before the window takes keys
 * does nothing, and one pressed while the extension starts may run nothing: call this before the
 * presses a test counts.
 */
export async function activateBy(key: string, page: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await driver.count(OUR_STATUS_ITEM, { page })) === 0) {
    if (Date.now() > deadline) throw new Error(`the extension did not start in the new window after pressing ${key} for 120 s`);
    await driver.press(key, { page });
    await driver.waitFor(OUR_STATUS_ITEM, { page, timeoutMs: 5_000 }).catch(() => undefined);
  }
}
