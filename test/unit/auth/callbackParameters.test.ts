import * as assert from 'node:assert/strict';
import { URI } from 'vscode-uri';
import { parseCallbackQuery } from '../../../src/auth/callbackParameters';
import { LoopbackServer } from '../../../src/auth/loopbackServer';
import { silentLogger } from '../../../src/common/logger';

/** Values an authorization server may hand out: base64 with + / =, and a literal %2B. */
const CODE = 'Ab+c/d=e==';
const STATE = 'st+a/te=';
const ISS = 'https://auth.example/realm=1';
const PERCENT_CODE = 'x%2By+z';

/** How the server writes the redirect's query: encoded as RFC 6749 asks, or raw (+ / = left alone). */
const encodings = {
  encoded: (values: Record<string, string>) => Object.entries(values).map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&'),
  raw: (values: Record<string, string>) => Object.entries(values).map(([name, value]) => `${name}=${value}`).join('&'),
};

/** VS Code desktop: the OS hands the URL to VS Code, whose URI.parse (vscode-uri is the same code) decodes the query once. */
const desktopQuery = (query: string) => URI.parse(`vscode://tenant-api.tenant-api-workbench/auth-callback?${query}`).query;

/** The web editor (code-server, vscode.dev): its callback.html reads the URL's searchParams and stores params.toString(). */
function webQuery(query: string): string {
  const url = new URL(`https://editor.example/callback?vscode-reqid=1&vscode-scheme=code-oss&vscode-authority=x&${query}`);
  const params = url.searchParams;
  for (const name of ['vscode-reqid', 'vscode-scheme', 'vscode-authority']) params.delete(name);
  return URI.revive({ scheme: 'code-oss', authority: 'x', path: '/auth-callback', query: params.toString(), fragment: '' }).query;
}

const expected = (parameters: URLSearchParams) => ({ code: parameters.get('code'), state: parameters.get('state'), iss: parameters.get('iss') });

describe('callback parameters', () => {
  for (const [encodingName, encode] of Object.entries(encodings)) {
    it(`keep + / = in code, state and iss through VS Code desktop's decoded uri.query (${encodingName} by the server)`, () => {
      const parsed = parseCallbackQuery(desktopQuery(encode({ code: CODE, state: STATE, iss: ISS })), 'decoded');
      assert.deepEqual(expected(parsed), { code: CODE, state: STATE, iss: ISS });
    });

    it(`keep + / = in code, state and iss through the web editor's callback page (${encodingName} by the server)`, () => {
      const parsed = parseCallbackQuery(webQuery(encode({ code: CODE, state: STATE, iss: ISS })), 'encoded');
      assert.deepEqual(expected(parsed), { code: CODE, state: STATE, iss: ISS });
    });

    it(`keep + / = in code, state and iss through the loopback server (${encodingName} by the server)`, async () => {
      let received: URLSearchParams | undefined;
      const server = await LoopbackServer.start({ onCallback: (parameters) => ((received = parameters), true), logger: silentLogger });
      try {
        const response = await fetch(`${server.redirectUri}?${encode({ code: CODE, state: STATE, iss: ISS })}`);
        assert.equal(response.status, 200);
      } finally {
        await server.close();
      }
      assert.deepEqual(expected(received!), { code: CODE, state: STATE, iss: ISS });
    });
  }

  it('keep a literal %2B in a value, on every path (the server encodes it as %252B)', () => {
    const query = encodings.encoded({ code: PERCENT_CODE, state: STATE });
    assert.equal(parseCallbackQuery(desktopQuery(query), 'decoded').get('code'), PERCENT_CODE);
    assert.equal(parseCallbackQuery(webQuery(query), 'encoded').get('code'), PERCENT_CODE);
    assert.equal(parseCallbackQuery(`?${query}`, 'encoded').get('code'), PERCENT_CODE);
  });

  it('still reads an error_description written with + for spaces, and survives a stray %', () => {
    const query = 'error=access_denied&error_description=The+user+said+no%21&state=s%zz';
    assert.equal(parseCallbackQuery(query, 'encoded').get('error_description'), 'The user said no!');
    assert.equal(parseCallbackQuery(desktopQuery('error=access_denied&error_description=The+user+said+no&state=s'), 'decoded').get('error_description'), 'The user said no');
    assert.equal(parseCallbackQuery(query, 'encoded').get('state'), 's%zz');
  });
});
