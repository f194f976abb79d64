import * as assert from 'node:assert/strict';
import { silentLogger } from '../../../src/common/logger';
import { fileLock } from '../../../src/coordination/refreshLock';
import { openRuntimeDir } from '../../../src/coordination/runtimeDir';
import { sleep, tempBase } from './helpers';

describe('coordination: the cross-window lock', () => {
  it('runs tasks under one name one at a time, tasks under other names at once', async () => {
    const { base, cleanup } = tempBase();
    try {
      // Two windows: two locks on the same directory.
      const [one, two] = [fileLock(() => openRuntimeDir(base), silentLogger), fileLock(() => openRuntimeDir(base), silentLogger)];
      const events: string[] = [];
      const task = (label: string) => async () => {
        events.push(`${label}+`);
        await sleep(60);
        events.push(`${label}-`);
        return label;
      };
      const results = await Promise.all([one('refresh u1', task('a')), two('refresh u1', task('b')), two('refresh u2', task('c'))]);
      assert.deepEqual(results, ['a', 'b', 'c']);
      const a = events.indexOf('a+');
      const b = events.indexOf('b+');
      const [first, second] = a < b ? ['a', 'b'] : ['b', 'a'];
      assert.ok(events.indexOf(`${first}-`) < events.indexOf(`${second}+`), `no overlap under one name: ${events.join(' ')}`);
      assert.ok(events.indexOf('c+') < events.indexOf(`${first}-`), 'another name does not wait');
    } finally {
      cleanup();
    }
  });
});
