// Reading and driving a webview of the extension in the runner's browser: a webview is an iframe
// (iframe.webview) holding another (#active-frame) with the extension's page. Playwright's selectors
// enter frames with `internal:control=enter-frame`; `:visible` keeps to the webview on screen (a hidden
// panel keeps its iframe in the page).
import { driver } from './driver';
import { waitFor } from './workbench';

/** A selector of `inner` inside the page of the webview on screen. */
export function inWebview(inner: string): string {
  return `iframe.webview.ready:visible >> internal:control=enter-frame >> iframe#active-frame >> internal:control=enter-frame >> ${inner}`;
}

/** The innerText of `inner` in the webview on screen, once `accept` takes it (10 s at most by default). */
export async function webviewText(inner: string, accept: (text: string) => boolean = () => true, options: { timeoutMs?: number; what?: string } = {}): Promise<string> {
  let last = '';
  try {
    return await waitFor(
      async () => {
        last = await driver.text(inWebview(inner), { timeoutMs: 2000 }).catch(() => '');
        return accept(last) ? last : undefined;
      },
      { timeoutMs: options.timeoutMs ?? 10_000, what: options.what ?? inner },
    );
  } catch (error) {
    throw new Error(`${String(error)}; it showed: ${JSON.stringify(last)}`);
  }
}

/** How many elements match `inner` in the webview on screen. */
export function webviewCount(inner: string): Promise<number> {
  return driver.count(inWebview(inner));
}
