// The quick input (palette, pickers) as a user reads it after typing: its list once it shows what was typed.
import { driver } from './driver';
import { waitFor } from './workbench';

export const QUICK_INPUT_ROW = '.quick-input-widget .quick-input-list .monaco-list-row';

/**
 * Waits until every row of the quick input's list holds `text` (at least one row): the filter just
 * typed has been applied, so Enter takes the row the user sees and the rows read are the filtered ones.
 */
export async function waitForRowsHolding(text: string, options: { timeoutMs?: number } = {}): Promise<void> {
  await waitFor(
    async () => {
      const rows = await driver.count(QUICK_INPUT_ROW);
      return (rows > 0 && (await driver.count(`${QUICK_INPUT_ROW}:has-text("${text}")`)) === rows) || undefined;
    },
    { timeoutMs: options.timeoutMs ?? 10_000, what: `the list filtered to rows holding "${text}"` },
  );
}
