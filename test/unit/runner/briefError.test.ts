import * as assert from 'node:assert/strict';
import { briefError } from '../../vscode/runner/playwrightErrors';

describe("the driver's errors on one line", () => {
  it('keep the first line and the last two distinct steps of the call log', () => {
    const message = [
      'locator.click: Timeout 20000ms exceeded.',
      'Call log:',
      "  - waiting for locator('.codelens-decoration a')",
      '  -   locator resolved to <a id="lens">Send</a>',
      '  - attempting click action',
      '  -   waiting for element to be visible, enabled and stable',
      '  -   <div class="monaco-dialog-modal-block"></div> intercepts pointer events',
      '  - retrying click action',
      '  -   waiting for element to be visible, enabled and stable',
      '  -   <div class="monaco-dialog-modal-block"></div> intercepts pointer events',
    ].join('\n');
    assert.equal(
      briefError(message),
      'locator.click: Timeout 20000ms exceeded. (waiting for element to be visible, enabled and stable; <div class="monaco-dialog-modal-block"></div> intercepts pointer events)',
    );
  });

  it('drop the terminal colours Playwright puts in its call log', () => {
    const message = "locator.click: Timeout 20000ms exceeded.\nCall log:\n\u001b[2m  - waiting for locator('a')\u001b[22m\n";
    assert.equal(briefError(message), "locator.click: Timeout 20000ms exceeded. (waiting for locator('a'))");
  });

  it('leave a one-line message as it is', () => {
    assert.equal(briefError('the browser is not ready yet'), 'the browser is not ready yet');
  });
});
