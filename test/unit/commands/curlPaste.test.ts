// A cURL command pasted into Send Request's first step: what the following steps are given.
import * as assert from 'node:assert/strict';
import { readPastedCurl } from '../../../src/commands/curlPaste';

const BASE = 'https://api.example.com/root';

describe('commands/curlPaste', () => {
  it('a platform address becomes its path and query; the JSON body and extra headers go to their steps; credentials are named', () => {
    const pasted = readPastedCurl(
      `curl -X POST 'https://api.example.com/root/api/configurazioni?pagina=2' -H 'Accept: application/json' -H 'Content-Type: application/json' -H 'Authorization: Bearer abc' -H 'X-Trace: t1' --data-raw '{"descrizione":"Nuova"}'`,
      BASE,
    );
    assert.ok(!('error' in pasted));
    assert.deepEqual({ ...pasted, notes: pasted.notes.length }, { method: 'POST', path: '/api/configurazioni', query: 'pagina=2', body: '{\n  "descrizione": "Nuova"\n}', headers: 'X-Trace: t1', notes: 1 });
  });

  it("a tenant's cluster address becomes its path too", () => {
    const pasted = readPastedCurl("curl 'http://127.0.0.1:4403/efat/api/v1/ditte'", BASE, ['http://127.0.0.1:4403']);
    assert.ok(!('error' in pasted) && pasted.path === '/efat/api/v1/ditte' && pasted.method === 'GET');
  });

  it('says why it cannot send: another host, a body that is not JSON, no URL', () => {
    assert.deepEqual(readPastedCurl("curl 'https://elsewhere.example/x'", BASE), { error: "The cURL command calls elsewhere.example, not the platform's base URL: Paste cURL as Request puts it in a request file." });
    assert.match((readPastedCurl('curl https://api.example.com/root/x -d a=1', BASE) as { error: string }).error, /JSON bodies only/);
    assert.match((readPastedCurl('curl -H "Accept: x"', BASE) as { error: string }).error, /has no URL/);
  });
});
