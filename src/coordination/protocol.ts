import type { OrganizationQuotaState } from '../api/quotaTracker';
import type { QuotaReading } from '../api/types';
import type { StoredSession } from '../auth/sessionStore';

/**
 * The messages of an application's window channel (windowChannel.ts), between a window and the
 * broker: one JSON object per line. After the handshake they carry the rate limit (want, cancel,
 * done, pause, grant), the quota (quota) and refreshed sessions (session, sync, synced). Every line
 * from the other side goes through `parseMessage`; anything else closes the connection.
 */
export const PROTOCOL_VERSION = 3;

/**
 * The name of an application's broker files (socket, election lock, journal) for this protocol: windows
 * of an older extension version (before a reload) elect their own broker instead of failing to join ours.
 */
export const brokerName = (appKey: string) => `${appKey}.p${PROTOCOL_VERSION}`;
/** A line longer than this is refused (a join lists at most a window's calls of the last minute). */
export const MAX_LINE_BYTES = 1 << 20;

/** An organization's quota state as every window should see it (QuotaTracker.state). */
export type QuotaState = OrganizationQuotaState;

/**
 * A session one window refreshed, for the others to adopt (memory only: never journaled, never logged):
 * the record the session store keeps. The message's `store` names the secret store it belongs to (an
 * environment's), so that a window adopts it only into the same one.
 */
export type SessionRecord = StoredSession;

/** A call that ended at the window `agoMs` before the message was written. */
export interface EndedCall {
  id: number;
  agoMs: number;
}

export type ClientMessage =
  // the handshake
  | { t: 'hello'; v: number; nonce: string }
  | { t: 'join'; proof: string; w: string; inFlight: number[]; ended: EndedCall[] }
  // the rate limit
  | { t: 'want'; id: number; front: boolean }
  | { t: 'cancel'; id: number }
  | { t: 'done'; id: number; how: DoneHow; answer?: AnswerTiming }
  | { t: 'pause'; ms: number }
  // the quota
  | { t: 'quota'; state: QuotaState }
  // the sessions: `sync` asks for every session relayed to this window before it (SessionChannel.sync)
  | { t: 'session'; store: string; session: SessionRecord }
  | { t: 'sync'; n: number };

/** Of an answered call: its origin and its round trip (send to response headers) measured at the window. */
export interface AnswerTiming {
  origin: string;
  roundTripMs: number;
}

/** answered / failed: the call was sent; sent-released: sent, then given up; unsent: never left. */
export type DoneHow = 'answered' | 'failed' | 'released' | 'unsent';

export type BrokerMessage =
  // the handshake
  | { t: 'challenge'; nonce: string; proof: string }
  | { t: 'welcome'; pausedForMs: number; quota: QuotaState[] }
  // the rate limit
  | { t: 'grant'; w: string; id: number }
  | { t: 'pause'; forMs: number }
  // the quota
  | { t: 'quota'; state: QuotaState }
  // the sessions
  | { t: 'session'; store: string; session: SessionRecord }
  /** Answers the window's `sync` n: every message the broker relayed to it before has been sent. */
  | { t: 'synced'; n: number };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isMs = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 7 * 24 * 3600_000;
const isToken = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{16,128}$/.test(value);
const isText = (value: unknown, max = 500): value is string => typeof value === 'string' && value.length <= max;
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function isReading(value: unknown): value is QuotaReading {
  if (!isObject(value)) return false;
  return (
    isText(value.organization) &&
    (value.keyLabel === undefined || isText(value.keyLabel)) &&
    (value.module === undefined || isText(value.module)) &&
    isCount(value.used) &&
    isCount(value.limit) &&
    isCount(value.seenAt)
  );
}

function isQuotaState(value: unknown): value is QuotaState {
  return (
    isObject(value) &&
    isText(value.organization) &&
    (value.reading === undefined || (isReading(value.reading) && value.reading.organization === value.organization)) &&
    typeof value.stopped === 'boolean' &&
    typeof value.resumed === 'boolean'
  );
}

/** A token: printable ASCII without spaces (JWTs and opaque tokens), at most 16 KiB. */
const isSecretText = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 16_384 && /^[\x21-\x7e]+$/.test(value);
const isEpochMs = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function isSessionRecord(value: unknown): value is SessionRecord {
  if (!isObject(value) || value.version !== 1 || !isObject(value.account)) return false;
  const { account } = value;
  return (
    isText(account.id, 255) && (account.id as string).length > 0 &&
    isText(account.label) &&
    Array.isArray(account.roles) && account.roles.length <= 50 && account.roles.every((role) => isText(role, 100)) &&
    isSecretText(value.accessToken) &&
    (value.refreshToken === undefined || isSecretText(value.refreshToken)) &&
    (value.idToken === undefined || isSecretText(value.idToken)) &&
    isEpochMs(value.expiresAt) &&
    isEpochMs(value.updatedAt) &&
    (value.order === undefined || isEpochMs(value.order)) &&
    Array.isArray(value.scopes) && value.scopes.length <= 50 && value.scopes.every((scope) => isText(scope, 200)) &&
    isText(value.authUrl, 2000) &&
    isText(value.clientId, 500)
  );
}

const isSession = (m: Record<string, unknown>) => isText(m.store, 200) && isSessionRecord(m.session);

const DONE: ReadonlySet<string> = new Set<DoneHow>(['answered', 'failed', 'released', 'unsent']);

const clientShapes: Record<ClientMessage['t'], (m: Record<string, unknown>) => boolean> = {
  hello: (m) => m.v === PROTOCOL_VERSION && isToken(m.nonce),
  join: (m) =>
    isToken(m.proof) &&
    isToken(m.w) &&
    Array.isArray(m.inFlight) &&
    m.inFlight.every(isId) &&
    Array.isArray(m.ended) &&
    m.ended.every((e) => isObject(e) && isId(e.id) && isMs(e.agoMs)),
  want: (m) => isId(m.id) && typeof m.front === 'boolean',
  cancel: (m) => isId(m.id),
  done: (m) =>
    isId(m.id) &&
    typeof m.how === 'string' &&
    DONE.has(m.how) &&
    (m.answer === undefined || (m.how === 'answered' && isObject(m.answer) && isText(m.answer.origin, 300) && isMs(m.answer.roundTripMs))),
  pause: (m) => isMs(m.ms),
  quota: (m) => isQuotaState(m.state),
  session: isSession,
  sync: (m) => isId(m.n),
};

const brokerShapes: Record<BrokerMessage['t'], (m: Record<string, unknown>) => boolean> = {
  challenge: (m) => isToken(m.nonce) && isToken(m.proof),
  welcome: (m) => isMs(m.pausedForMs) && Array.isArray(m.quota) && m.quota.every(isQuotaState),
  grant: (m) => isToken(m.w) && isId(m.id),
  pause: (m) => isMs(m.forMs),
  quota: (m) => isQuotaState(m.state),
  session: isSession,
  synced: (m) => isId(m.n),
};

function parseWith<T>(line: string, shapes: Record<string, (m: Record<string, unknown>) => boolean>): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.t !== 'string' || !Object.hasOwn(shapes, value.t)) return undefined;
  return shapes[value.t](value) ? (value as T) : undefined;
}

/** A message from a window, or undefined when the line is not one. */
export const parseClientMessage = (line: string) => parseWith<ClientMessage>(line, clientShapes);
/** A message from the broker, or undefined when the line is not one. */
export const parseBrokerMessage = (line: string) => parseWith<BrokerMessage>(line, brokerShapes);
