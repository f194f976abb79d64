import * as l10n from '../common/l10n';
import { SignInCancelledError } from './oauthErrors';
import type { SignInOptions } from './types';

/**
 * The running sign-in gave way to a newer one with other options. A kind of cancel: no fallback flow
 * is offered for it, and the tenantApi.signIn command ends quietly.
 */
export class SignInReplacedError extends SignInCancelledError {
  constructor() {
    super();
    // `name` is a literal type on SignInCancelledError, so it cannot be redeclared here.
    Object.defineProperty(this, 'name', { value: 'SignInReplacedError', configurable: true, writable: true });
    this.message = l10n.t('Sign-in was replaced by a newer sign-in with other options.');
  }
}

// One entry per SignInOptions field: the compiler refuses a new option until it is listed here.
const optionValue: { [K in keyof Required<SignInOptions>]: (value: SignInOptions[K]) => string | undefined } = {
  tenantId: (value) => value || undefined,
  loginHint: (value) => value || undefined,
  forceLogin: (value) => (value ? 'login' : undefined),
};

/**
 * What a sign-in asks the server for: two requests may share one sign-in only when their keys are equal.
 * `scopes` is the effective scope set (configured plus extra); order and repeats do not matter.
 */
export function signInKey(options: SignInOptions, scopes: readonly string[]): string {
  const fields = (Object.keys(optionValue) as Array<keyof SignInOptions>)
    .sort()
    .map((field) => [field, (optionValue[field] as (value: unknown) => string | undefined)(options[field])]);
  return JSON.stringify({ options: fields, scopes: [...new Set(scopes)].sort() });
}

interface Running<T> {
  key: string;
  promise: Promise<T>;
  controller: AbortController;
}

interface Waiting<T> {
  key: string;
  start: (signal: AbortSignal) => Promise<T>;
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/**
 * One sign-in at a time. A request with the key of the running sign-in (or of the one waiting to run)
 * joins it. A request with another key replaces it: the running one is aborted with
 * SignInReplacedError and the new one starts once it has settled, so two never run at once.
 */
export class SignInQueue<T> {
  private running?: Running<T>;
  private waiting?: Waiting<T>;

  /**
   * `restart`: even with the key of the running sign-in, replace it rather than join it (the user asked
   * to sign in again while that one is stuck, say on a question nobody answers).
   */
  request(key: string, start: (signal: AbortSignal) => Promise<T>, options: { restart?: boolean } = {}): Promise<T> {
    if (!options.restart && this.joins(key)) return (this.waiting ?? this.running)!.promise;
    if (!this.running) return this.begin(key, start);

    // The successor that never started is dropped; its callers are told as the running one's are.
    this.waiting?.reject(new SignInReplacedError());
    if (!this.running.controller.signal.aborted) this.running.controller.abort(new SignInReplacedError());
    let resolve!: (value: T) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<T>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    this.waiting = { key, start, promise, resolve, reject };
    return promise;
  }

  /** Whether a request with `key` would join a sign-in already under way (the waiting one, else the running one). */
  joins(key: string): boolean {
    if (this.waiting) return this.waiting.key === key;
    // A replaced sign-in always has a waiting successor, so a running one with no successor is not replaced.
    return this.running?.key === key;
  }

  /** True while a sign-in runs (whether or not another waits for it to settle). */
  get busy(): boolean {
    return this.running !== undefined;
  }

  private begin(key: string, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let started: Promise<T>;
    try {
      started = start(controller.signal);
    } catch (error) {
      started = Promise.reject(error);
    }
    // Once replaced, a failure is the replacement's doing, whatever error the aborted work ended with.
    // A sign-in that completed before the abort could take hold still hands out its result.
    const promise = started.then(
      (value) => {
        this.settled(running);
        return value;
      },
      (error: unknown) => {
        this.settled(running);
        throw controller.signal.reason instanceof SignInReplacedError ? controller.signal.reason : error;
      },
    );
    const running: Running<T> = { key, promise, controller };
    this.running = running;
    return promise;
  }

  private settled(running: Running<T>): void {
    if (this.running !== running) return;
    this.running = undefined;
    const next = this.waiting;
    this.waiting = undefined;
    if (next) this.begin(next.key, next.start).then(next.resolve, next.reject);
  }
}
