import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { Journal } from '../../../src/coordination/journal';
import { UnsafeRuntimeDirError, applicationKey, openRuntimeDir } from '../../../src/coordination/runtimeDir';
import { tempBase } from './helpers';

describe('coordination: the user-only directory', () => {
  let base: string;
  let cleanup: () => void;
  beforeEach(() => ({ base, cleanup } = tempBase()));
  afterEach(() => cleanup());

  it('is created 0700; the key file is 0600 and the same for every window', async () => {
    const dir = await openRuntimeDir(base);
    assert.equal((await fs.stat(dir.path)).mode & 0o777, 0o700);
    const key = await dir.key();
    assert.equal(key.length, 32);
    assert.equal((await fs.stat(join(dir.path, 'broker.key'))).mode & 0o777, 0o600);
    assert.deepEqual(await (await openRuntimeDir(base)).key(), key);
    assert.ok(dir.endpoint(applicationKey('http://a/', 'c')).startsWith(dir.path));
  });

  it('makes an existing directory of ours private again', async () => {
    const dir = await openRuntimeDir(base);
    await fs.chmod(dir.path, 0o755);
    await openRuntimeDir(base);
    assert.equal((await fs.stat(dir.path)).mode & 0o777, 0o700);
  });

  it('refuses a symbolic link in its place (checked with lstat, never followed)', async () => {
    const dir = await openRuntimeDir(base);
    await fs.rm(dir.path, { recursive: true });
    const elsewhere = join(base, 'elsewhere');
    await fs.mkdir(elsewhere);
    await fs.chmod(elsewhere, 0o755);
    await fs.symlink(elsewhere, dir.path);
    await assert.rejects(openRuntimeDir(base), UnsafeRuntimeDirError);
    assert.equal((await fs.stat(elsewhere)).mode & 0o777, 0o755, 'nothing done through the link');
  });

  it('refuses a parent that others can write to without the sticky bit', async () => {
    const open = join(base, 'open');
    await fs.mkdir(open);
    await fs.chmod(open, 0o777);
    await assert.rejects(openRuntimeDir(open), UnsafeRuntimeDirError);
    await fs.chmod(open, 0o1777);
    await openRuntimeDir(open);
  });

  it('one key per application: authUrl (trailing slash aside) and clientId', () => {
    assert.equal(applicationKey('https://auth.example/', 'x'), applicationKey('https://auth.example', 'x'));
    assert.notEqual(applicationKey('https://auth.example', 'x'), applicationKey('https://auth.example', 'y'));
  });

  it('normalises as the settings do (host case, default port, spaces), so the ledger and the session relay find one application', () => {
    assert.equal(applicationKey('https://Auth.Example:443/x/', ' x '), applicationKey('https://auth.example/x', 'x'));
  });
});

describe('coordination: the broker journal', () => {
  it('keeps what was granted and what was logged, and forgets journals nobody wrote to for a day', async () => {
    const { base, cleanup } = tempBase();
    try {
      const path = join(base, 'app.journal');
      const journal = new Journal(path);
      const w = 'ab'.repeat(16);
      journal.granted(w, 1);
      journal.granted(w, 2);
      journal.granted(w, 3);
      journal.ended(w, 1, true);
      journal.ended(w, 2, false);
      journal.close();
      const now = performance.now();
      const calls = Journal.read(path, now, 60_000);
      assert.deepEqual(calls.map((c) => [c.id, c.loggedAt === undefined]), [[1, false], [3, true]]);
      assert.ok(Math.abs(calls[0].loggedAt! - now) < 1000, 'logged times come back on this clock');
      assert.equal((await fs.stat(path)).mode & 0o777, 0o600);
      Journal.sweep(base, 60_000);
      assert.ok((await fs.stat(path)).isFile(), 'a fresh journal stays');
      const old = new Date(Date.now() - 2 * 24 * 3600_000);
      await fs.utimes(path, old, old);
      Journal.sweep(base, 24 * 3600_000);
      await assert.rejects(fs.stat(path));
    } finally {
      cleanup();
    }
  });
});
