import type { Clock } from '../../../src/common/clock';

/** A Clock whose time only moves when the test says so; timers fire in order during advance(). */
export class FakeClock implements Clock {
  private time = 0;
  private wall = 1_700_000_000_000;
  private nextId = 1;
  private timers = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.wall + this.time;
  }

  monotonic(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing due timers in order (and letting promises settle between them). */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await flush();
      let nextId: number | undefined;
      let nextAt = Infinity;
      for (const [id, timer] of this.timers) {
        if (timer.at < nextAt) {
          nextAt = timer.at;
          nextId = id;
        }
      }
      if (nextId === undefined || nextAt > target) break;
      const timer = this.timers.get(nextId)!;
      this.timers.delete(nextId);
      this.time = Math.max(this.time, timer.at);
      timer.callback();
    }
    this.time = target;
    await flush();
  }
}

/** Lets pending promise callbacks and I/O callbacks (real, not faked) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 10; j++) await Promise.resolve();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
