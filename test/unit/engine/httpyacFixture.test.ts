import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RouteTable } from '../../../src/api/routes';
import { diagnoseRequestFile } from '../../../src/engine/diagnostics';
import { parseRequestFile } from '../../../src/engine/parser';
import { defaultSystemContext } from '../../../src/engine/systemVariables';

// httpYac's documented assertion examples (the fixture names its source and what it leaves out, and why).
const text = fs.readFileSync(path.join(__dirname, 'fixtures', 'httpyac-assert.http'), 'utf8');

describe("engine: a file in httpYac's documented assertion syntax", () => {
  it('parses with no diagnostic, every ?? line an assertion of its request', () => {
    const file = parseRequestFile(text);
    const routes = new RouteTable();
    const found = diagnoseRequestFile(text, file, { routeFor: (p) => routes.match(p), environment: {}, system: defaultSystemContext() });
    assert.deepEqual(found.map((item) => `${item.line + 1}: ${item.message}`), []);
    const written = text.split(/\r?\n/).filter((line) => line.startsWith('??')).length;
    assert.equal(file.requests.reduce((sum, request) => sum + request.assertions.length, 0), written);
    assert.equal(written, 27);
    assert.ok(file.requests.every((request) => request.body === undefined), 'no assertion line is read as a body');
  });

  it('the lines left out would be refused, with a reason', () => {
    const refused = ['?? js response.parsedBody.slideshow.slides[0].title == Wake up to WonderWidgets!', '?? xpath /a == 1', '{{', '}}'];
    const file = parseRequestFile(['GET https://httpbin.org/json', '', ...refused].join('\n'));
    assert.deepEqual(file.problems.map((problem) => problem.message), ['scriptNotRun', 'assertion', 'assertion']);
  });

  it("the sandbox's request files, whose assertions run in httpYac too, have no parse problem", () => {
    for (const name of ['example.http', 'tests.http']) {
      const file = parseRequestFile(fs.readFileSync(path.join(__dirname, '..', '..', 'sandbox', 'requests', name), 'utf8'));
      assert.deepEqual(file.problems, [], name);
      assert.ok(file.requests.some((request) => request.assertions.length > 0), name);
    }
  });
});
