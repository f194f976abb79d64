/**
 * REST Client's system variables: `{{$guid}}`, `{{$timestamp [offset unit]}}`,
 * `{{$datetime rfc1123|iso8601|"format" [offset unit]}}`, `{{$localDatetime ...}}`,
 * `{{$randomInt min max}}`, `{{$processEnv [%]NAME}}`, `{{$dotenv [%]NAME}}` (the `.env` beside the
 * request file). The clock, the random source and the process
 * environment are parameters, so the unit tests are exact.
 */
import { randomUUID } from 'node:crypto';
import * as l10n from '../common/l10n';

export interface SystemVariableContext {
  now(): Date;
  /** In [0, 1). */
  random(): number;
  uuid(): string;
  processEnv: Record<string, string | undefined>;
  /** Values `%NAME` refers to (REST Client reads the name from the environment's variables). */
  lookup(name: string): string | undefined;
  /** The `.env` values beside the request file, for `$dotenv`. */
  dotenv?: Readonly<Record<string, string>>;
}

export const defaultSystemContext = (lookup: (name: string) => string | undefined = () => undefined, dotenv: Readonly<Record<string, string>> = {}): SystemVariableContext => ({
  now: () => new Date(),
  random: Math.random,
  uuid: randomUUID,
  processEnv: process.env,
  lookup,
  dotenv,
});

/** The system variables, for completion and hover. */
export function systemVariableHelp(): Array<{ name: string; snippet: string; documentation: string }> {
  return [
    { name: '$guid', snippet: '$guid', documentation: l10n.t('A new random UUID (version 4).') },
    { name: '$timestamp', snippet: '$timestamp', documentation: l10n.t('Seconds since the Unix epoch (UTC); "$timestamp -1 d" shifts it.') },
    { name: '$datetime', snippet: '$datetime iso8601', documentation: l10n.t('UTC date and time: iso8601, rfc1123 or a "format" (YYYY MM DD HH mm ss SSS); an offset such as "1 d" may follow.') },
    { name: '$localDatetime', snippet: '$localDatetime iso8601', documentation: l10n.t('Like $datetime, in local time.') },
    { name: '$randomInt', snippet: '$randomInt 1 100', documentation: l10n.t('A random integer from min (included) to max (excluded).') },
    { name: '$processEnv', snippet: '$processEnv NAME', documentation: l10n.t('The value of an environment variable of the editor process (masked when shown).') },
    { name: '$dotenv', snippet: '$dotenv NAME', documentation: l10n.t('A value of the .env file beside the request file, or in a folder above it (masked when shown).') },
  ];
}

export type SystemResult = { ok: true; value: string; secret?: boolean } | { ok: false; reason: string };

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const MONTH_UNITS = new Set(['M', 'y']);

function shift(date: Date, amount: string | undefined, unit: string | undefined): Date | string {
  if (amount === undefined) return date;
  if (!/^-?\d+$/.test(amount) || unit === undefined) return l10n.t('an offset is written as a number and a unit, e.g. "-1 d"');
  const n = Number(amount);
  if (MONTH_UNITS.has(unit)) {
    const shifted = new Date(date.getTime());
    shifted.setUTCMonth(shifted.getUTCMonth() + (unit === 'y' ? 12 * n : n));
    return shifted;
  }
  const ms = UNIT_MS[unit];
  if (ms === undefined) return l10n.t('"{0}" is not a unit (ms, s, m, h, d, w, M, y)', unit);
  return new Date(date.getTime() + n * ms);
}

/** Splits `$datetime "DD-MM-YYYY" 1 d` into words, keeping a quoted format whole. */
function words(text: string): string[] {
  return text.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
}

const pad = (value: number, size = 2) => String(value).padStart(size, '0');

function formatDate(date: Date, format: string, local: boolean): string | undefined {
  if (format === 'iso8601') {
    if (!local) return date.toISOString();
    const offset = -date.getTimezoneOffset();
    const sign = offset >= 0 ? '+' : '-';
    const abs = Math.abs(offset);
    return `${formatDate(date, '"YYYY-MM-DDTHH:mm:ss.SSS"', true)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  }
  if (format === 'rfc1123') return local ? date.toString() : date.toUTCString();
  const quoted = /^(["'])(.*)\1$/.exec(format);
  if (!quoted) return undefined;
  const parts = local
    ? [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds()]
    : [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()];
  const tokens: Record<string, string> = {
    YYYY: pad(parts[0], 4), MM: pad(parts[1]), DD: pad(parts[2]), HH: pad(parts[3]), mm: pad(parts[4]), ss: pad(parts[5]), SSS: pad(parts[6], 3),
  };
  return quoted[2].replace(/YYYY|SSS|MM|DD|HH|mm|ss/g, (token) => tokens[token]);
}

/** Evaluates `$name args...` (the text between the braces). */
export function evaluateSystemVariable(expression: string, context: SystemVariableContext): SystemResult {
  const [name, ...args] = words(expression.trim());
  switch (name) {
    case '$guid':
      return { ok: true, value: context.uuid() };
    case '$timestamp': {
      const date = shift(context.now(), args[0], args[1]);
      if (typeof date === 'string') return { ok: false, reason: date };
      return { ok: true, value: String(Math.floor(date.getTime() / 1000)) };
    }
    case '$datetime':
    case '$localDatetime': {
      if (args.length === 0) return { ok: false, reason: l10n.t('{0} needs a format: iso8601, rfc1123 or "a format"', name) };
      const date = shift(context.now(), args[1], args[2]);
      if (typeof date === 'string') return { ok: false, reason: date };
      const value = formatDate(date, args[0], name === '$localDatetime');
      return value === undefined ? { ok: false, reason: l10n.t('{0} is not a format (iso8601, rfc1123 or "YYYY-MM-DD")', args[0]) } : { ok: true, value };
    }
    case '$randomInt': {
      const [min, max] = args.map(Number);
      if (args.length !== 2 || !Number.isInteger(min) || !Number.isInteger(max) || max <= min) {
        return { ok: false, reason: l10n.t('$randomInt needs two integers, min and a larger max') };
      }
      return { ok: true, value: String(min + Math.floor(context.random() * (max - min))) };
    }
    case '$processEnv': {
      if (!args[0]) return { ok: false, reason: l10n.t('$processEnv needs the name of an environment variable') };
      const indirect = args[0].startsWith('%');
      const variable = indirect ? context.lookup(args[0].slice(1)) : args[0];
      const value = variable === undefined ? undefined : context.processEnv[variable];
      if (value === undefined) return { ok: false, reason: l10n.t('the environment variable {0} is not set', variable ?? args[0]) };
      return { ok: true, value, secret: true };
    }
    case '$dotenv': {
      if (!args[0]) return { ok: false, reason: l10n.t('$dotenv needs the name of a variable of the .env file') };
      const variable = args[0].startsWith('%') ? context.lookup(args[0].slice(1)) : args[0];
      const value = variable === undefined ? undefined : context.dotenv?.[variable];
      if (value === undefined) return { ok: false, reason: l10n.t('{0} is not in a .env file beside the request file or above it', variable ?? args[0]) };
      return { ok: true, value, secret: true };
    }
    default:
      return { ok: false, reason: l10n.t('{0} is not a system variable this extension knows', name ?? '$') };
  }
}
