/** Time sources, passed in so that tests can use fake timers. */
export interface Clock {
  /** Wall-clock time in ms since the epoch (token expiry, "seen at"). */
  now(): number;
  /** Monotonic time in ms (rate limiting): never jumps with the system clock. */
  monotonic(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Runs `callback` on the next turn of the event loop, after I/O (for a wait shorter than a timer's millisecond). */
  setImmediate?(callback: () => void): unknown;
  clearImmediate?(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setImmediate: (callback) => setImmediate(callback),
  clearImmediate: (handle) => clearImmediate(handle as ReturnType<typeof setImmediate>),
};
