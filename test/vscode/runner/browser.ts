// The system Chromium, headless, driven by playwright-core (never `playwright install`: no downloads here).
import * as fs from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { chromiumPath } from './prerequisites';

/** Without the background-networking flags Chromium keeps dialling Google, refused by this closed network. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface LaunchedBrowser {
  browser: Browser;
  context: BrowserContext;
  version: string;
  close(): Promise<void>;
}

export async function launchBrowser(options: { headless?: boolean } = {}): Promise<LaunchedBrowser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}. Install it with: sudo apt-get install -y chromium (or set TENANT_API_TEST_CHROMIUM).`);
  }
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: options.headless ?? true,
    args: chromiumArgs,
    timeout: 60_000,
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  let closed = false;
  return {
    browser,
    context,
    version: browser.version(),
    async close() {
      if (closed) return;
      closed = true;
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
    },
  };
}
