import * as assert from 'node:assert/strict';
import {
  HISTORY_BODY_LIMIT,
  HISTORY_KEY,
  RequestHistory,
  formatQuery,
  isSecretHeader,
  parseQuery,
  type HistoryEntry,
  type HistoryMemento,
} from '../../../src/commands/requestHistory';

class MemoryMemento implements HistoryMemento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

function entry(n: number, overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return { method: 'GET', path: `/api/r${n}`, at: n, ...overrides };
}

describe('requestHistory', () => {
  it('keeps the last 50, newest first', async () => {
    const history = new RequestHistory(new MemoryMemento());
    for (let n = 1; n <= 60; n++) await history.add(entry(n));
    const entries = history.entries();
    assert.equal(entries.length, 50);
    assert.equal(entries[0].path, '/api/r60');
    assert.equal(entries[49].path, '/api/r11');
  });

  it('never stores an auth header, a key, a cookie or a secret-looking header', async () => {
    const memento = new MemoryMemento();
    const history = new RequestHistory(memento);
    await history.add(
      entry(1, {
        headers: {
          Authorization: 'Bearer eyJsecret',
          'Authorization-Key': 'KEY-SECRET',
          Cookie: 'sid=SECRET',
          'X-Api-Key': 'SECRET',
          'X-Access-Token': 'SECRET',
          'X-Trace': 'keep-me',
        },
        url: 'https://user:SECRET@api.example.com/api/r1',
      }),
    );
    const stored = JSON.stringify(memento.values.get(HISTORY_KEY));
    assert.doesNotMatch(stored, /SECRET/);
    assert.match(stored, /keep-me/);
  });

  it('replaces an identical earlier request instead of listing it twice', async () => {
    const history = new RequestHistory(new MemoryMemento());
    await history.add(entry(1, { path: '/a', tenantId: 't1' }));
    await history.add(entry(2, { path: '/b' }));
    await history.add(entry(3, { path: '/a', tenantId: 't1', status: 500 }));
    assert.deepEqual(history.entries().map((e) => [e.path, e.at]), [['/a', 3], ['/b', 2]]);
    await history.add(entry(4, { path: '/a', tenantId: 't2' }));
    assert.equal(history.entries().length, 3);
  });

  it('does not keep huge bodies', async () => {
    const history = new RequestHistory(new MemoryMemento());
    await history.add(entry(1, { method: 'POST', body: 'x'.repeat(HISTORY_BODY_LIMIT + 1) }));
    assert.equal(history.entries()[0].body, undefined);
    await history.add(entry(2, { method: 'POST', body: '{"a":1}' }));
    assert.equal(history.entries()[0].body, '{"a":1}');
  });

  it('skips stored values of the wrong shape', () => {
    const memento = new MemoryMemento();
    memento.values.set(HISTORY_KEY, [{ method: 'GET' }, 'junk', null, { method: 'GET', path: '/ok', at: 1 }]);
    assert.deepEqual(new RequestHistory(memento).entries().map((e) => e.path), ['/ok']);
    memento.values.set(HISTORY_KEY, 'not an array');
    assert.deepEqual(new RequestHistory(memento).entries(), []);
  });

  it('keeps a failed request with its error kind, and no status when no answer came', async () => {
    const history = new RequestHistory(new MemoryMemento());
    await history.add(entry(1, { error: 'licenceMissing' }));
    assert.deepEqual(history.entries()[0], { method: 'GET', path: '/api/r1', at: 1, error: 'licenceMissing' });
    // Only a kind is kept: a message (which may quote what was sent) is dropped.
    await history.add(entry(2, { error: 'The key abc-123 was refused' }));
    assert.equal(history.entries()[0].error, undefined);
  });

  it('lists recent distinct paths', async () => {
    const history = new RequestHistory(new MemoryMemento());
    await history.add(entry(1, { path: '/a' }));
    await history.add(entry(2, { path: '/b' }));
    await history.add(entry(3, { path: '/a', method: 'POST' }));
    assert.deepEqual(history.recentPaths(), ['/a', '/b']);
  });

  it('tells secret headers apart', () => {
    for (const name of ['authorization', 'AUTHORIZATION-KEY', 'cookie', 'x-auth-token', 'client_secret', 'apikey']) {
      assert.equal(isSecretHeader(name), true, name);
    }
    for (const name of ['accept', 'x-request-id', 'if-none-match']) assert.equal(isSecretHeader(name), false, name);
  });

  it('parses and formats queries', () => {
    assert.deepEqual(parseQuery('?a=1&b=x%20y'), { a: '1', b: 'x y' });
    assert.deepEqual(parseQuery('  '), {});
    assert.equal(formatQuery({ a: '1', b: 'x y' }), '?a=1&b=x+y');
    assert.equal(formatQuery({}), '');
  });
});
