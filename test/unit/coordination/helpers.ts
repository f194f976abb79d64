import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RateLimit } from '../../../src/api/limits';
import { systemClock } from '../../../src/common/clock';
import { silentLogger } from '../../../src/common/logger';
import { openRuntimeDir, type RuntimeDir } from '../../../src/coordination/runtimeDir';
import { WindowChannel } from '../../../src/coordination/windowChannel';
import type { QuotaState } from '../../../src/coordination/protocol';

/** Short windows so that the tests run in a second: 5 per 100 ms. */
export const FAST_LIMITS: RateLimit[] = [{ unit: 'second', windowMs: 100, max: 5 }];

/** A private base directory per test (a 0700 temp dir is a safe parent). */
export function tempBase(): { base: string; cleanup(): void } {
  const base = mkdtempSync(join(tmpdir(), 'ledger-test-'));
  return { base, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export async function startWindow(dir: RuntimeDir, options: { quotaStates?: () => QuotaState[]; limits?: RateLimit[] } = {}): Promise<WindowChannel> {
  const channel = new WindowChannel({
    dir,
    appKey: 'app',
    clock: systemClock,
    limits: options.limits ?? FAST_LIMITS,
    safetyMarginMs: () => 1,
    logger: silentLogger,
    quotaStates: options.quotaStates ?? (() => []),
  });
  await channel.start();
  return channel;
}

export const openDir = (base: string) => openRuntimeDir(base);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
