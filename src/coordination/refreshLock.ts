import { createHash } from 'node:crypto';
import { lock } from 'proper-lockfile';
import type { Logger } from '../common/logger';
import type { RuntimeDir } from './runtimeDir';

/** Runs `task` while no other window of this user runs one under the same name. */
export type CrossWindowLock = <T>(name: string, task: () => Promise<T>) => Promise<T>;

/**
 * A lock file per name in the user-only directory (proper-lockfile: an atomic mkdir, its mtime
 * renewed while held, taken over 10 s after its holder stopped renewing it, e.g. killed).
 * When the lock cannot be had at all, the task runs anyway: a refresh that may race (which the
 * session manager survives) is better than no refresh.
 */
export function fileLock(dir: () => Promise<RuntimeDir>, logger: Logger): CrossWindowLock {
  return async (name, task) => {
    let release: (() => Promise<void>) | undefined;
    try {
      const file = (await dir()).file(`lock-${createHash('sha256').update(name).digest('hex').slice(0, 20)}`);
      release = await lock(file, {
        realpath: false,
        stale: 10_000,
        retries: { retries: 600, minTimeout: 10, maxTimeout: 100, factor: 1.3 },
        onCompromised: (error) => logger.warn(`Cross-window lock lost: ${error.message}`),
      });
    } catch (error) {
      logger.warn(`Could not take the cross-window lock; going on without it: ${String(error)}`);
    }
    try {
      return await task();
    } finally {
      await release?.().catch(() => undefined);
    }
  };
}
