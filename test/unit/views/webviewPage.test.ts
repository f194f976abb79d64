import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, escapeHtml, newNonce, scriptJson, webviewPage } from '../../../src/views/webviewPage';

describe('webview page', () => {
  const page = () =>
    webviewPage({
      cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
      scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/table.js',
      styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/table.css',
      nonce: 'abc123==',
      lang: 'it',
      title: 'Table: GET "ditte" <RC-MI>',
      initial: { text: '</script><script>alert(1)</script>', line: 'a\u2028b' },
    });

  it('allows nothing remote: scripts only with the nonce, styles and images only from the extension', () => {
    const policy = contentSecurityPolicy('https://x.example', 'n0nce');
    assert.equal(policy, "default-src 'none'; img-src https://x.example data:; style-src https://x.example; font-src https://x.example; script-src 'nonce-n0nce'");
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*/);
    const html = page();
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;/);
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    assert.equal(scripts.length, 2);
    for (const script of scripts) assert.match(script, /nonce="abc123=="/);
    assert.match(html, /<html lang="it">/);
  });

  it('embeds any data as JSON that cannot end its script element, and escapes the title', () => {
    const html = page();
    assert.equal(html.match(/<\/script>/g)?.length, 2, 'only the two real script ends');
    const embedded = /<script[^>]*id="initial-data"[^>]*>(.*?)<\/script>/s.exec(html)?.[1];
    assert.deepEqual(JSON.parse(embedded!), { text: '</script><script>alert(1)</script>', line: 'a\u2028b' });
    assert.match(html, /<title>Table: GET &quot;ditte&quot; &lt;RC-MI&gt;<\/title>/);
    assert.equal(scriptJson('<!--'), '"\\u003c!--"');
    assert.equal(escapeHtml(`'&`), '&#39;&amp;');
  });

  it('makes a new nonce of 128 random bits each time', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => newNonce()));
    assert.equal(nonces.size, 50);
    for (const nonce of nonces) assert.equal(Buffer.from(nonce, 'base64').length, 16);
  });
});
