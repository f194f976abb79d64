// Injected faults: each applies to the next `count` (default 1) resource calls whose path starts
// with `pathPrefix` (default: every path). A call consumes every queued fault that matches it.
import type { Fault } from '../types';

interface Queued { fault: Fault; remaining: number }

export class FaultQueue {
  private queued: Queued[] = [];

  add(fault: Fault): void {
    const count = fault.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new Error(`fault count must be a positive integer, got ${fault.count}`);
    if (fault.kind === 'status' && (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599)) {
      throw new Error(`fault status must be an HTTP status code, got ${fault.status}`);
    }
    this.queued.push({ fault, remaining: count });
  }

  clear(): void {
    this.queued = [];
  }

  /** The faults the call to `path` gets (one per queued fault that matches), consumed. */
  take(path: string): Fault[] {
    const taken: Fault[] = [];
    for (const q of this.queued) {
      if (path.startsWith(q.fault.pathPrefix ?? '')) {
        taken.push(q.fault);
        q.remaining--;
      }
    }
    this.queued = this.queued.filter((q) => q.remaining > 0);
    return taken;
  }
}
