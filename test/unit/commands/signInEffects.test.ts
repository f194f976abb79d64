// The policy of sign-in and sign-out for an environment's cache and watches, in plain Node.
import * as assert from 'node:assert/strict';
import { followSignIn } from '../../../src/commands/signInEffects';
import { Emitter } from '../../../src/common/event';
import type { AccountInfo } from '../../../src/common/sessions';

const account = (id: string): AccountInfo => ({ id, label: id, roles: [] });
const flush = () => new Promise((resolve) => setImmediate(resolve));

function harness(signedIn: AccountInfo | undefined, accounts: () => Promise<AccountInfo[]> = async () => (signedIn ? [signedIn] : [])) {
  const changes = new Emitter<void>();
  let active = signedIn;
  const effects: string[] = [];
  const subscription = followSignIn(
    { activeAccount: () => active, onDidChangeSessions: changes.event, getAccounts: accounts },
    { clearCache: () => effects.push('clearCache'), stopWatches: () => effects.push('stopWatches'), resumeWatches: () => effects.push('resumeWatches') },
  );
  const become = (next: AccountInfo | undefined) => {
    active = next;
    changes.fire();
  };
  return { effects, become, subscription };
}

describe('sign-in effects', () => {
  it('signed in at start: the pinned watches start once the accounts are read', async () => {
    const h = harness(account('mario'));
    assert.deepEqual(h.effects, []);
    await flush();
    assert.deepEqual(h.effects, ['resumeWatches']);
  });

  it('a sign-out empties the cache and stops the watches; a sign-in empties it and starts the pinned ones', async () => {
    const h = harness(undefined);
    await flush();
    assert.deepEqual(h.effects, [], 'signed out at start: nothing');
    h.become(account('mario'));
    assert.deepEqual(h.effects.splice(0), ['clearCache', 'resumeWatches']);
    h.become(account('mario'));
    assert.deepEqual(h.effects.splice(0), [], 'a refresh of the same account changes nothing');
    h.become(account('laura'));
    assert.deepEqual(h.effects.splice(0), ['clearCache'], 'another account: its own cache, the watches go on');
    h.become(undefined);
    assert.deepEqual(h.effects.splice(0), ['clearCache', 'stopWatches']);
    h.subscription.dispose();
    h.become(account('mario'));
    assert.deepEqual(h.effects, [], 'disposed with its environment');
  });

  it('accounts that cannot be read start no watch', async () => {
    const h = harness(account('mario'), async () => {
      throw new Error('keychain locked');
    });
    await flush();
    assert.deepEqual(h.effects, []);
  });
});
