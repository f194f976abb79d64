// cURL commands in: each construct people paste, read as curl would, written as a request file that parses.
import * as assert from 'node:assert/strict';
import { curlAsRequestText, curlImporter, isCurlCommand } from '../../../src/engine/importers/curl';
import { importRequests, ImportError } from '../../../src/engine/importers';
import { parseRequestFile } from '../../../src/engine/parser';

/** The one request a command becomes, as the parser reads the text written for it, and the notes. */
function request(command: string) {
  const { text, notes } = curlAsRequestText(command);
  const file = parseRequestFile(text);
  assert.deepEqual(file.problems, [], text);
  assert.equal(file.requests.length, 1, text);
  const [parsed] = file.requests;
  const body = parsed.body?.kind === 'inline' ? parsed.body.text : parsed.body?.kind === 'file' ? `< ${parsed.body.path}` : undefined;
  return { method: parsed.method, url: parsed.url, headers: parsed.headers.map((header) => [header.name, header.value]), body, notes: notes.map((note) => note.message), text };
}

describe('engine/importers/curl', () => {
  it('a plain GET; a URL without a scheme gets http:// as curl gives it', () => {
    assert.deepEqual(request("curl 'https://api.example.com/v10/user-tenants'"), { method: 'GET', url: 'https://api.example.com/v10/user-tenants', headers: [], body: undefined, notes: [], text: 'GET https://api.example.com/v10/user-tenants' });
    assert.equal(request('curl api.example.com/x').url, 'http://api.example.com/x');
    assert.equal(request('$ curl --url https://api.example.com/y').url, 'https://api.example.com/y', 'a prompt before the command and --url');
  });

  it('-X and -H, quotes of every kind, a header with no value (Name;), a colon in a value', () => {
    const got = request(`curl -X PUT "https://x.example/a" -H 'Accept: application/json' -H "X-Note: it's \\"quoted\\"" -H 'X-Empty;' -H 'X-Time: 10:30'`);
    assert.equal(got.method, 'PUT');
    assert.deepEqual(got.headers, [['Accept', 'application/json'], ['X-Note', 'it\'s "quoted"'], ['X-Empty', ''], ['X-Time', '10:30']]);
  });

  it('-d makes a form POST, joined with & when repeated; a JSON body is laid out and typed by its header', () => {
    const form = request('curl https://x.example/f -d a=1 --data b=2 --data-ascii c=3');
    assert.deepEqual([form.method, form.body, form.headers], ['POST', 'a=1&b=2&c=3', [['Content-Type', 'application/x-www-form-urlencoded']]]);
    const json = request(`curl https://x.example/j -H 'Content-Type: application/json' --data-raw '{"a":[1,2],"b":"@x"}'`);
    assert.equal(json.body, '{\n  "a": [\n    1,\n    2\n  ],\n  "b": "@x"\n}');
    assert.equal(request(`curl https://x.example/j --json '{"a":1}'`).headers.map(([name]) => name).join(','), 'Content-Type,Accept');
    assert.equal(request(`curl https://x.example/u --data-urlencode 'q=a b&c' --data-urlencode plain`).body, 'q=a%20b%26c&plain');
  });

  it('--data-binary @file becomes a body read from that file', () => {
    assert.equal(request('curl -X POST https://x.example/u --data-binary @payload.json').body, '< payload.json');
  });

  it('-G moves the data into the query; -I is a HEAD', () => {
    const got = request('curl -G https://x.example/s?lang=it -d q=1 -d page=2');
    assert.deepEqual([got.method, got.url, got.body], ['GET', 'https://x.example/s?lang=it&q=1&page=2', undefined]);
    assert.equal(request('curl -I https://x.example/').method, 'HEAD');
  });

  it('-F text fields become a multipart body; a file field is named and left out', () => {
    const got = request('curl https://x.example/up -F name=Ada -F "note=hi there" -F file=@cv.pdf');
    assert.equal(got.method, 'POST');
    assert.match(got.headers[0][1], /^multipart\/form-data; boundary=/);
    assert.match(got.body ?? '', /name="name"\n\nAda\n.*name="note"\n\nhi there\n--\w+--$/s);
    assert.deepEqual(got.notes, ['The form field file sends the file cv.pdf: file parts are not imported, add it by hand.']);
  });

  it('credentials are dropped and named: -u, a bearer header, the licence and tenant headers, a cookie; -k is named', () => {
    const got = request(
      "curl -k -u mario:secret -b 'sid=abc' https://x.example/p -H 'Authorization: Bearer eyJabc' -H 'Authorization-Key: KEY' -H 'User-Tenant: t1' -H 'X-Api-Key: k-123' --compressed",
    );
    assert.deepEqual(got.headers, [['X-Api-Key', '{{xApiKey}}']]);
    assert.ok(!/secret|eyJabc|KEY|sid=abc|k-123/.test(got.text), got.text);
    assert.deepEqual(got.notes, [
      '-k was dropped: the extension never skips certificate checks (for a server with a private CA, set NODE_EXTRA_CA_CERTS).',
      '-u (a user and password) was dropped: the extension signs in and adds the token and licence key itself.',
      'The cookies of -b were dropped: a cookie carries a session, and a session does not belong in a file.',
      'The header Authorization was dropped: the extension signs in and adds the token, licence key and tenant itself.',
      'The header Authorization-Key was dropped: the extension signs in and adds the token, licence key and tenant itself.',
      'The header User-Tenant was dropped: the extension signs in and adds the token, licence key and tenant itself.',
      'The value of X-Api-Key was not written (a secret does not belong in a file): the header reads the variable xApiKey; set xApiKey in http-client.private.env.json.',
    ]);
  });

  it("bash's continuations and $'...' strings, cmd's ^ as Copy as cURL (cmd) writes it, give the same request", () => {
    const bash = ["curl 'https://x.example/api?a=1&b=2' \\", "  -H 'content-type: application/json' \\", `  --data-raw $'{"t":"it\\'s"}'`].join('\n');
    const cmd = ['curl ^"https://x.example/api?a=1^&b=2^" ^', '  -H ^"content-type: application/json^" ^', '  --data-raw ^"^{^\\^"t^\\^":^\\^"it\'s^\\^"^}^"'].join('\n');
    const fromBash = request(bash);
    assert.deepEqual(fromBash, { ...request(cmd), notes: [] });
    assert.deepEqual([fromBash.method, fromBash.url, fromBash.body], ['POST', 'https://x.example/api?a=1&b=2', '{\n  "t": "it\'s"\n}']);
  });

  it('a shell variable is read from the environment when sent, never expanded at import', () => {
    const got = request('curl "https://x.example/$VERSION/items" -H "X-Trace: $TRACE_ID"');
    assert.equal(got.url, 'https://x.example/{{$processEnv VERSION}}/items');
    assert.deepEqual(got.headers, [['X-Trace', '{{$processEnv TRACE_ID}}']]);
    assert.equal(got.notes.length, 2);
  });

  it('a pasted one-line command that lost its line breaks still reads (a backslash before spaces is no URL)', () => {
    const got = request("curl 'https://x.example/a' \\  -H 'Accept: text/plain' \\  -X DELETE");
    assert.deepEqual([got.method, got.url, got.headers], ['DELETE', 'https://x.example/a', [['Accept', 'text/plain']]]);
  });

  it('an unknown option and what follows a pipe are named, not guessed', () => {
    const got = request('curl --frobnicate https://x.example/a | jq .');
    assert.equal(got.url, 'https://x.example/a');
    assert.deepEqual(got.notes, ['The option --frobnicate is not known to the import: ignored.', 'What follows the command (| jq .) is not part of the request: left out.']);
  });

  it('a file of commands becomes one request file; the format is detected; a command that is not one is refused with its line', async () => {
    const text = ['# from the docs', 'curl https://x.example/a', '', 'curl -X POST https://x.example/b -d x=1', ''].join('\n');
    assert.ok(curlImporter.detects(text) && isCurlCommand('curl x') && !isCurlCommand('wget x'));
    const result = await importRequests({ text, source: 'docs/commands.sh' });
    assert.equal(result.format, 'curl');
    assert.deepEqual(result.files.map((file) => [file.path, file.requests]), [['commands.http', 2]]);
    assert.deepEqual(parseRequestFile(result.files[0].text).requests.map((parsed) => `${parsed.method} ${parsed.url}`), ['GET https://x.example/a', 'POST https://x.example/b']);
    await assert.rejects(importRequests({ text: 'curl https://x.example/a\nwget https://x.example/b\n' }, 'curl'), (error: unknown) => error instanceof ImportError && error.message === 'line 2: "wget" is not a cURL command.');
    await assert.rejects(importRequests({ text: 'curl -H "Accept: x"\n' }, 'curl'), /line 1: the cURL command has no URL\./);
  });
});
