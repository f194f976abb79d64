import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { registerSecret } from '../common/redact';
import { OAuthError } from './oauthErrors';

/** What a redirect brings back: the query (or form) parameters of the callback. */
export type CallbackParameters = URLSearchParams;

export interface CallbackResult {
  code: string;
  /** RFC 9207 `iss`, when the server sends it. */
  iss?: string;
}

interface Pending {
  resolve(result: CallbackResult): void;
  reject(error: Error): void;
}

/** How many ended attempts are remembered, to tell a late answer from a forged one. */
const ENDED_REMEMBERED = 20;

/**
 * Sign-in attempts waiting for their redirect, matched by `state`. A callback with an unknown or
 * already used state is ignored (and logged) so that a forged or replayed redirect signs no one in;
 * an error redirect ends its attempt with the server's message.
 */
export class PendingAttempts {
  private readonly pending = new Map<string, Pending>();
  /** States of attempts that ended without their answer (cancelled, timed out, replaced), newest last. */
  private readonly ended: string[] = [];
  private readonly lateListeners = new Set<() => void>();

  constructor(private readonly logger: Logger) {}

  /**
   * Fires when the browser brings the answer of an attempt that had already ended: the user finished
   * the sign-in after the editor stopped waiting, and should be told so (the browser's page cannot).
   */
  onLateCallback(listener: () => void): { dispose(): void } {
    this.lateListeners.add(listener);
    return { dispose: () => this.lateListeners.delete(listener) };
  }

  /** Starts waiting for `state`; the returned promise settles when its callback arrives or `cancel` is called. */
  wait(state: string): Promise<CallbackResult> {
    if (this.pending.has(state)) throw new Error('duplicate sign-in state');
    return new Promise<CallbackResult>((resolve, reject) => {
      this.pending.set(state, { resolve, reject });
    });
  }

  /** Stops waiting for `state` (cancel, timeout); the waiting promise rejects with `reason`. */
  cancel(state: string, reason: Error): void {
    const entry = this.pending.get(state);
    if (!entry) return;
    this.pending.delete(state);
    this.ended.push(state);
    if (this.ended.length > ENDED_REMEMBERED) this.ended.shift();
    entry.reject(reason);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Routes one callback to its attempt. Returns whether it matched one. */
  handleCallback(parameters: CallbackParameters): boolean {
    const state = parameters.get('state');
    const entry = state ? this.pending.get(state) : undefined;
    if (!state || !entry) {
      this.logger.warn(`Ignored a sign-in callback with ${state ? 'an unknown or already used' : 'no'} state.`);
      if (state && this.ended.includes(state)) this.lateListeners.forEach((listener) => listener());
      return false;
    }
    this.pending.delete(state);
    const error = parameters.get('error');
    if (error) {
      this.logger.warn(`Sign-in callback returned error ${error}: ${parameters.get('error_description') ?? ''}`);
      entry.reject(new OAuthError(error, parameters.get('error_description') ?? undefined));
      return true;
    }
    const code = parameters.get('code');
    registerSecret(code ?? undefined);
    if (!code) {
      entry.reject(new OAuthError('invalid_response', l10n.t('The sign-in redirect carried no authorization code.')));
      return true;
    }
    entry.resolve({ code, iss: parameters.get('iss') ?? undefined });
    return true;
  }
}
