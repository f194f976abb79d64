import * as assert from 'node:assert/strict';
import { RouteTable } from '../../../src/api/routes';
import type { TenantRecord } from '../../../src/api/types';
import { codeLensPlan } from '../../../src/engine/codeLenses';
import { completionSpot } from '../../../src/engine/completionContext';
import { diagnoseRequestFile } from '../../../src/engine/diagnostics';
import { parseRequestFile } from '../../../src/engine/parser';
import { defaultSystemContext } from '../../../src/engine/systemVariables';

const tenants: TenantRecord[] = [
  { id: '3f2b8c1e-5d4a-4e6b-9a7c-1b2d3e4f5a60', codiceAmbienteDati: 'RC-MI', descrizioneAmbienteDati: 'Rossi Milano', clusterAddress: 'http://127.0.0.1:1', usable: true },
];

function diagnose(lines: string[], known: TenantRecord[] | 'unknown' = tenants) {
  const text = lines.join('\n');
  const routes = new RouteTable();
  return diagnoseRequestFile(text, parseRequestFile(text), {
    routeFor: (path) => routes.match(path),
    environment: { fromEnv: 'x' },
    tenants: known === 'unknown' ? undefined : known,
    system: defaultSystemContext(),
  }).map((item) => `${item.line}:${item.start}-${item.end}:${item.code}:${item.severity}`);
}

describe('engine/diagnostics', () => {
  it('a clean file has none', () => {
    assert.deepEqual(
      diagnose(['@p = 1', '# @name a', '# @tenant rc-mi', 'GET /efat/api/v1/ditte?x={{p}}&e={{fromEnv}}', '###', 'POST /api/x', 'Content-Type: application/json', '', '{"a": {{a.response.body.$.id}}, "b": "{{$guid}}"}']),
      [],
    );
  });

  it('reports each kind of problem on its line', () => {
    assert.deepEqual(
      diagnose([
        '# @tenant XX',
        'GET /nowhere?q={{missing}}',
        'User-Tenant: abc',
        '###',
        'POST /api/x',
        '',
        '{"a": 1,',
        '  "b": }',
        '###',
        'GET /api/y?{{other.response.body.$.id}}={{$randomInt 1}}',
        '###',
        'ftp://example.com/x',
        '###',
        'FETCH /api/x',
      ]),
      [
        '13:0-5:unknownMethod:error',
        '1:0-26:noRoute:error',
        '2:0-16:credentialHeader:warning',
        '0:0-12:unknownTenant:warning',
        '7:7-8:malformedJson:error',
        '11:0-19:badUrl:error',
        '1:15-26:unknownVariable:warning',
        '9:11-39:unknownRequest:error',
        '9:40-56:badSystemVariable:warning',
      ],
    );
  });

  it('skips the tenant check while the tenants are not known (signed out: none), and comment lines', () => {
    assert.deepEqual(diagnose(['# @tenant XX', '# {{missing}} in a comment', 'GET /api/x'], 'unknown'), []);
    assert.deepEqual(diagnose(['# @tenant XX', 'GET /api/x'], []), []);
  });

  it('reports an unknown file-level tenant once, not once per request using it', () => {
    assert.deepEqual(diagnose(['@tenant = XX', 'GET /api/a', '###', 'GET /api/b']), ['0:0-12:unknownTenant:warning']);
  });
});

describe('engine/codeLenses', () => {
  it('puts Send and Copy as cURL above every request, Send All above the first when there are several, Watch above a GET', () => {
    const file = parseRequestFile(['# @name a', 'GET /api/a', '###', '', 'POST /api/b'].join('\n'));
    assert.deepEqual(codeLensPlan(file), [
      { line: 1, kind: 'send', index: 0 },
      { line: 1, kind: 'sendAll', index: 0 },
      { line: 1, kind: 'copyAsCurl', index: 0 },
      { line: 1, kind: 'watch', index: 0 },
      { line: 4, kind: 'send', index: 1 },
      { line: 4, kind: 'copyAsCurl', index: 1 },
    ]);
    assert.deepEqual(codeLensPlan(parseRequestFile('GET /api/a')).map((lens) => lens.kind), ['send', 'copyAsCurl', 'watch']);
  });
});

describe('engine/completionContext', () => {
  const lines = ['@x = 1', '# @tenant R', 'GE', 'GET /ef', 'Acc', '', '{"a": "{{lo'];
  const file = parseRequestFile(lines.join('\n'));
  const at = (line: number) => completionSpot(file, lines[line], line, lines[line].length);
  it('knows what is typed where', () => {
    assert.deepEqual(at(1), { kind: 'tenant', prefix: 'R' });
    assert.deepEqual(completionSpot(file, 'GE', 2, 2), { kind: 'method', prefix: 'GE' });
    assert.deepEqual(completionSpot(parseRequestFile('GET /ef'), 'GET /ef', 0, 7), { kind: 'path', prefix: '/ef' });
    assert.deepEqual(completionSpot(parseRequestFile('GET /x\nAcc'), 'Acc', 1, 3), { kind: 'header', prefix: 'Acc', request: { method: 'GET', url: '/x' } });
    assert.deepEqual(at(6), { kind: 'variable', prefix: 'lo' });
    assert.deepEqual(completionSpot(parseRequestFile('GET /x\n\n{"a": 1'), '{"a": 1', 2, 7), { kind: 'none', prefix: '' });
  });
  it('knows the query names and the empty body of a request, for its catalogue', () => {
    assert.deepEqual(completionSpot(parseRequestFile('GET /pets?li'), 'GET /pets?li', 0, 12), { kind: 'query', prefix: 'li', request: { method: 'GET', url: '/pets?li' } });
    assert.deepEqual(completionSpot(parseRequestFile('GET /pets?a=1&'), 'GET /pets?a=1&', 0, 14), { kind: 'query', prefix: '', request: { method: 'GET', url: '/pets?a=1&' } });
    const continued = parseRequestFile('GET /pets\n  &li');
    assert.deepEqual(completionSpot(continued, '  &li', 1, 5), { kind: 'query', prefix: 'li', request: { method: 'GET', url: '/pets&li' } });
    const body = parseRequestFile('POST /pets\nContent-Type: application/json\n\n');
    assert.deepEqual(completionSpot(body, '', 3, 0), { kind: 'body', prefix: '', request: { method: 'POST', url: '/pets' } });
    assert.deepEqual(completionSpot(parseRequestFile('GET /x\n?? status == 200'), '?? sta', 1, 6).kind, 'assertionSubject');
  });
});
