import * as assert from 'node:assert/strict';
import { parseBrokerMessage, parseClientMessage, PROTOCOL_VERSION } from '../../../src/coordination/protocol';

const hex = (n: number) => 'a'.repeat(n);
const session = {
  version: 1,
  account: { id: 'mario', label: 'Mario Rossi', roles: ['admin'] },
  accessToken: 'eyJhbGciOi.x-y_z',
  refreshToken: 'rt~1',
  expiresAt: 1_900_000_000_000,
  scopes: ['openid', 'offline_access'],
  updatedAt: 1_800_000_000_000,
  order: 4,
  authUrl: 'https://login.example.com',
  clientId: 'workbench',
};

describe('coordination protocol: every message is validated', () => {
  it('accepts the messages of the protocol', () => {
    assert.deepEqual(parseClientMessage(JSON.stringify({ t: 'want', id: 3, front: false })), { t: 'want', id: 3, front: false });
    assert.ok(parseClientMessage(JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION, nonce: hex(32) })));
    assert.ok(parseClientMessage(JSON.stringify({ t: 'join', proof: hex(64), w: hex(32), inFlight: [1, 2], ended: [{ id: 0, agoMs: 12.5 }] })));
    assert.ok(parseClientMessage(JSON.stringify({ t: 'done', id: 1, how: 'answered', answer: { origin: 'http://127.0.0.1:1', roundTripMs: 3.2 } })));
    const reading = { organization: 'Rossi', used: 10, limit: 100, seenAt: 1 };
    assert.ok(parseClientMessage(JSON.stringify({ t: 'quota', state: { organization: 'Rossi', reading, stopped: false, resumed: false } })));
    assert.ok(parseBrokerMessage(JSON.stringify({ t: 'grant', w: hex(32), id: 7 })));
    assert.ok(parseBrokerMessage(JSON.stringify({ t: 'welcome', pausedForMs: 0, quota: [] })));
    assert.ok(parseClientMessage(JSON.stringify({ t: 'session', store: 'default', session })));
    assert.ok(parseBrokerMessage(JSON.stringify({ t: 'session', store: '@sandbox', session })));
    assert.ok(parseClientMessage(JSON.stringify({ t: 'sync', n: 4 })));
    assert.ok(parseBrokerMessage(JSON.stringify({ t: 'synced', n: 4 })));
  });

  it('refuses a relayed session that is not one', () => {
    const broken = [
      { ...session, version: 2 },
      { ...session, accessToken: '' },
      { ...session, accessToken: 'two words' },
      { ...session, accessToken: 'line\nbreak' },
      { ...session, accessToken: 'x'.repeat(16_385) },
      { ...session, refreshToken: 7 },
      { ...session, account: { id: '', label: 'Nobody', roles: [] } },
      { ...session, account: { id: 'mario', label: 'Mario', roles: 'admin' } },
      { ...session, expiresAt: -1 },
      { ...session, updatedAt: 1.5 },
      { ...session, order: -1 },
      { ...session, order: 2.5 },
      { ...session, order: '3' },
      { ...session, scopes: 'openid' },
      { ...session, authUrl: undefined },
    ];
    for (const value of broken) assert.equal(parseClientMessage(JSON.stringify({ t: 'session', store: 'default', session: value })), undefined, JSON.stringify(value));
    assert.equal(parseClientMessage(JSON.stringify({ t: 'session', session })), undefined, 'no store');
    assert.equal(parseClientMessage(JSON.stringify({ t: 'synced', n: 1 })), undefined, 'a broker message from a window');
    assert.equal(parseBrokerMessage(JSON.stringify({ t: 'sync', n: 1 })), undefined, 'a window message from the broker');
  });

  it('refuses anything else', () => {
    const refused = [
      'not json',
      '[]',
      JSON.stringify({ t: 'grant', w: hex(32), id: 1 }), // a broker message from a window
      JSON.stringify({ t: 'want', id: -1, front: false }),
      JSON.stringify({ t: 'want', id: 1.5, front: false }),
      JSON.stringify({ t: 'want', id: 1 }),
      JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION + 1, nonce: hex(32) }),
      JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION, nonce: 'ZZ' + hex(30) }),
      JSON.stringify({ t: 'hello', v: 1, nonce: hex(32) }), // the protocol before the session relay
      JSON.stringify({ t: 'join', proof: hex(64), w: hex(32), inFlight: ['1'], ended: [] }),
      JSON.stringify({ t: 'done', id: 1, how: 'twice' }),
      JSON.stringify({ t: 'done', id: 1, how: 'failed', answer: { origin: 'x', roundTripMs: 1 } }),
      JSON.stringify({ t: 'pause', ms: Number.MAX_VALUE }),
      JSON.stringify({ t: 'quota', state: { organization: 'Rossi', reading: { organization: 'Verdi', used: 1, limit: 2, seenAt: 1 }, stopped: false, resumed: false } }),
      JSON.stringify({ t: 'quota', state: { organization: 'Rossi', stopped: 'no', resumed: false } }),
      JSON.stringify({ t: 'toString' }),
      JSON.stringify({ t: '__proto__' }),
    ];
    for (const line of refused) assert.equal(parseClientMessage(line), undefined, line);
    assert.equal(parseBrokerMessage(JSON.stringify({ t: 'want', id: 1, front: false })), undefined);
    assert.equal(parseBrokerMessage(JSON.stringify({ t: 'end', w: hex(32), id: 1 })), undefined);
  });
});
