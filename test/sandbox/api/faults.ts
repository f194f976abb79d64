// Injected faults: each applies to the next `count` (default 1) resource calls whose path starts
// with `pathPrefix` (default: every path). A call consumes every queued fault that matches it.
import type { Fault, RedirectStatus } from '../types';

interface Queued { fault: Fault; remaining: number }

const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308] satisfies RedirectStatus[];
export const DEFAULT_REDIRECT_STATUS: RedirectStatus = 307;

export class FaultQueue {
  private queued: Queued[] = [];

  add(fault: Fault): void {
    const count = fault.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new Error(`fault count must be a positive integer, got ${fault.count}`);
    if (fault.kind === 'status' && (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599)) {
      throw new Error(`fault status must be an HTTP status code, got ${fault.status}`);
    }
    if (fault.kind === 'redirect') checkRedirect(fault);
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

function checkRedirect(fault: Extract<Fault, { kind: 'redirect' }>): void {
  if (fault.status !== undefined && !REDIRECT_STATUSES.includes(fault.status)) {
    throw new Error(`redirect fault status must be one of ${REDIRECT_STATUSES.join(', ')}, got ${fault.status}`);
  }
  const location = fault.location;
  // Relative locations resolve against the request's URL, so any base works for the check.
  if (typeof location !== 'string' || !location || /[\s\u0000-\u001f]/.test(location) || !URL.canParse(location, 'http://sandbox.invalid/')) {
    throw new Error(`redirect fault location must be an absolute or relative URL without spaces, got ${JSON.stringify(location)}`);
  }
}
