import * as assert from 'node:assert/strict';
import { RouteTable } from '../../../src/api/routes';
import {
  SINGLE_RESPONSE_TAB,
  dataSelector,
  responseTabKey,
  responseTitle,
  tabTitle,
  selectorLine,
  sentBodyText,
  shownHeaderValue,
  type TabRequest,
} from '../../../src/views/responsePresentation';

const table = new RouteTable();
const milano = { id: 't-mi', codiceAmbienteDati: 'RC-MI', descrizioneAmbienteDati: 'Rossi Milano' };
const torino = { id: 't-to', codiceAmbienteDati: 'RC-TO', descrizioneAmbienteDati: 'Rossi Torino' };
const bianchi = { id: 't-ba', codiceAmbienteDati: 'BA-PR', descrizioneAmbienteDati: 'Bianchi Produzione' };
const coreKey = { module: 'core', label: 'Rossi core', organization: 'Rossi Costruzioni S.r.l.' };
const ditte: TabRequest = { method: 'GET', path: '/efat/api/v1/ditte', query: {}, headers: {} };

describe('responsePresentation', () => {
  it('says a tenant selects the data of a tenant-scoped route, the licence key\'s organization that of a base-URL route', () => {
    const tenanted = dataSelector(table.match('/efat/api/v1/ditte'), milano, { module: 'efat', label: 'efat', organization: 'Rossi' });
    assert.equal(tenanted.kind, 'tenant');
    assert.equal(selectorLine(tenanted), 'Tenant: Rossi Milano (RC-MI) t-mi');
    // Opened under a Bianchi tenant, /api/configurazioni still reads the key's organization: no User-Tenant is sent.
    const base = dataSelector(table.match('/api/configurazioni'), bianchi, coreKey);
    assert.deepEqual(base, { kind: 'licenceKey', module: 'core', licence: coreKey });
    const line = selectorLine(base);
    assert.match(line, /Rossi Costruzioni S\.r\.l\./);
    assert.match(line, /no tenant is sent/);
    assert.doesNotMatch(line, /Bianchi|Tenant:/);
    assert.match(selectorLine(dataSelector(table.match('/api/configurazioni'), undefined, undefined)), /licence key of the module core/);
    assert.equal(dataSelector(table.match('/v10/user-tenants'), milano, undefined).kind, 'user');
    assert.equal(dataSelector(undefined, milano, undefined).kind, 'user');
  });

  it('titles a response with method, last segment, whose data and status', () => {
    assert.equal(responseTitle('get', '/efat/api/v1/ditte?x=1', dataSelector(table.match('/efat/'), milano, undefined), 200), 'GET ditte · RC-MI · 200');
    assert.equal(responseTitle('GET', '/efat/api/v1/ditte', dataSelector(table.match('/efat/'), torino, undefined), 200), 'GET ditte · RC-TO · 200');
    assert.equal(
      responseTitle('GET', '/api/configurazioni', dataSelector(table.match('/api/configurazioni'), bianchi, coreKey), 200),
      'GET configurazioni · Rossi Costruzioni S.r.l. · 200',
    );
    assert.equal(responseTitle('GET', '/v10/user-tenants', { kind: 'user' }, 401), 'GET user-tenants · 401');
  });

  it('titles a request file\'s request the same way: its name, else its path (never "line 3"); no status when no answer came', () => {
    const mi = dataSelector(table.match('/efat/'), milano, undefined);
    assert.equal(responseTitle('GET', '/efat/api/v1/ditte?x=1', mi, 200, 'elenco'), 'GET elenco · RC-MI · 200');
    assert.equal(responseTitle('GET', '/efat/api/v1/ditte?x=1', mi, 200), 'GET ditte · RC-MI · 200');
    assert.equal(responseTitle('POST', '/efat/api/v1/ditte', undefined, undefined), 'POST ditte');
  });

  it('makes a title a document name: no extension added, no character a path cannot hold, empty parts left out', () => {
    assert.equal(tabTitle(['GET ditte · RC-MI · 200', 'Produzione']), 'GET ditte · RC-MI · 200 · Produzione');
    assert.equal(tabTitle(['GET ditte', undefined, '', '200']), 'GET ditte · 200');
    assert.equal(tabTitle(['GET a/b?c#d', 'Env: x']), 'GET a b c d · Env x');
    assert.equal(tabTitle([undefined]), 'response');
  });

  it('keys a tab by the request: the same request shares it, a different one (tenant, query, body, headers) does not', () => {
    const mi = dataSelector(table.match('/efat/'), milano, undefined);
    const to = dataSelector(table.match('/efat/'), torino, undefined);
    const key = (request: TabRequest, selector = mi) => responseTabKey(request, selector, true);
    assert.equal(key(ditte), key({ ...ditte, headers: {}, query: {} }));
    assert.notEqual(key({ ...ditte, tenantId: milano.id }), key({ ...ditte, tenantId: torino.id }, to));
    assert.notEqual(key(ditte), key({ ...ditte, query: { pagina: '2' } }));
    assert.notEqual(key(ditte), key({ ...ditte, method: 'POST', bodyText: '{}' }));
    assert.notEqual(key({ ...ditte, method: 'POST', bodyText: '{"a":1}' }), key({ ...ditte, method: 'POST', bodyText: '{"a":2}' }));
    assert.notEqual(key(ditte), key({ ...ditte, headers: { 'X-Trace': '1' } }));
    assert.equal(key({ ...ditte, headers: { 'X-Trace': '1', Accept: 'a' } }), key({ ...ditte, headers: { accept: 'a', 'x-trace': '1' } }));
    // A base-URL resource opened under two tenants is one request: the tenant does not select its data.
    const configurazioni: TabRequest = { method: 'GET', path: '/api/configurazioni' };
    const route = table.match('/api/configurazioni');
    assert.equal(
      key({ ...configurazioni, tenantId: milano.id }, dataSelector(route, milano, coreKey)),
      key({ ...configurazioni, tenantId: bianchi.id }, dataSelector(route, bianchi, coreKey)),
    );
    // A secret header's value is not kept in the key.
    assert.ok(!key({ ...ditte, headers: { 'X-Api-Token': 'sekret-123' } }).includes('sekret-123'));
  });

  it('sends every response to one tab when tabPerRequest is off', () => {
    const mi = dataSelector(table.match('/efat/'), milano, undefined);
    const to = dataSelector(table.match('/efat/'), torino, undefined);
    assert.equal(responseTabKey(ditte, mi, false), SINGLE_RESPONSE_TAB);
    assert.equal(responseTabKey(ditte, to, false), responseTabKey({ ...ditte, path: '/api/configurazioni' }, mi, false));
  });

  it('masks every secret header by the one isSecretHeader rule, keeping only the key\'s label', () => {
    assert.equal(shownHeaderValue('Authorization', 'Bearer eyJhbGciOi.abc.def'), '[redacted]');
    assert.equal(shownHeaderValue('authorization', 'Bearer ***'), '[redacted]');
    assert.equal(shownHeaderValue('Authorization-Key', 'RSSCORE4F7K2M9Q1X8ZT'), '[redacted]');
    assert.equal(shownHeaderValue('Authorization-Key', '*** (Rossi core)'), '[redacted] (Rossi core)');
    assert.equal(shownHeaderValue('X-Api-Token', 'sekret-123'), '[redacted]');
    assert.equal(shownHeaderValue('Cookie', 'session=abc'), '[redacted]');
    assert.equal(shownHeaderValue('X-Client-Secret', '*** (not a label) trailing'), '[redacted]');
    assert.equal(shownHeaderValue('User-Tenant', 't-mi'), 't-mi');
    assert.equal(shownHeaderValue('Accept', 'application/json'), 'application/json');
  });

  it('shows the body as the client sends it', () => {
    assert.equal(sentBodyText(undefined), undefined);
    assert.equal(sentBodyText('raw text'), 'raw text');
    assert.equal(sentBodyText({ a: 1 }), '{"a":1}');
  });
});
