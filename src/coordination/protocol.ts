import type { OrganizationQuotaState } from '../api/quotaTracker';
import type { QuotaReading } from '../api/types';

/**
 * The messages between a window and the broker of an application's ledger: one JSON object per line.
 * Every line from the other side goes through `parseMessage`; anything else closes the connection.
 */
export const PROTOCOL_VERSION = 1;
/** A line longer than this is refused (a join lists at most a window's calls of the last minute). */
export const MAX_LINE_BYTES = 1 << 20;

/** An organization's quota state as every window should see it (QuotaTracker.state). */
export type QuotaState = OrganizationQuotaState;

/** A call that ended at the window `agoMs` before the message was written. */
export interface EndedCall {
  id: number;
  agoMs: number;
}

export type ClientMessage =
  | { t: 'hello'; v: number; nonce: string }
  | { t: 'join'; proof: string; w: string; inFlight: number[]; ended: EndedCall[] }
  | { t: 'want'; id: number; front: boolean }
  | { t: 'cancel'; id: number }
  | { t: 'done'; id: number; how: DoneHow; answer?: AnswerTiming }
  | { t: 'pause'; ms: number }
  | { t: 'quota'; state: QuotaState };

/** Of an answered call: its origin and its round trip (send to response headers) measured at the window. */
export interface AnswerTiming {
  origin: string;
  roundTripMs: number;
}

/** answered / failed: the call was sent; sent-released: sent, then given up; unsent: never left. */
export type DoneHow = 'answered' | 'failed' | 'released' | 'unsent';

export type BrokerMessage =
  | { t: 'challenge'; nonce: string; proof: string }
  | { t: 'welcome'; pausedForMs: number; quota: QuotaState[] }
  | { t: 'grant'; w: string; id: number }
  | { t: 'pause'; forMs: number }
  | { t: 'quota'; state: QuotaState };

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
};

const brokerShapes: Record<BrokerMessage['t'], (m: Record<string, unknown>) => boolean> = {
  challenge: (m) => isToken(m.nonce) && isToken(m.proof),
  welcome: (m) => isMs(m.pausedForMs) && Array.isArray(m.quota) && m.quota.every(isQuotaState),
  grant: (m) => isToken(m.w) && isId(m.id),
  pause: (m) => isMs(m.forMs),
  quota: (m) => isQuotaState(m.state),
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
