/**
 * How watches and cached answers are worded: the status bar's count and cost, a watched tab's lines
 * (when it last changed and what changed), why a watch stopped, a cached answer's age. Plain data, no
 * `vscode`; the words go through l10n.
 */
import * as l10n from '../common/l10n';
import type { BodyDiff } from '../engine/bodyDiff';
import type { WatchStopReason } from '../engine/watchSchedule';
import { timeOfDay } from './timeFormat';

/** `2 watches · 120 calls/h`, and `· 1 paused` for those of another environment (they make no calls); `1 watch paused` when none runs. */
export function watchStatusText(count: number, callsPerHour: number, paused = 0): string {
  const running = count - paused;
  if (running === 0 && paused > 0) return paused === 1 ? l10n.t('1 watch paused') : l10n.t('{0} watches paused', paused);
  const text = running === 1 ? l10n.t('1 watch · {0} calls/h', callsPerHour) : l10n.t('{0} watches · {1} calls/h', running, callsPerHour);
  return paused > 0 ? `${text} · ${l10n.t('{0} paused', paused)}` : text;
}

/** Watches of an environment that is no longer active: paused, and when they come back. */
export function watchPauseMessage(labels: readonly string[], environment: string, active: string): string {
  return labels.length === 1
    ? l10n.t('Paused watching {0}: "{1}" is active now. It resumes when you switch back to "{2}".', labels[0], active, environment)
    : l10n.t('Paused {0} watches of "{1}" while "{2}" is active. They resume when you switch back.', labels.length, environment, active);
}

/** Paused watches going on again: their environment is active (and signed in) again. */
export function watchResumeMessage(labels: readonly string[], environment: string): string {
  return labels.length === 1
    ? l10n.t('Resumed watching {0}: "{1}" is active again.', labels[0], environment)
    : l10n.t('Resumed {0} watches: "{1}" is active again.', labels.length, environment);
}

export interface WatchTabState {
  intervalSeconds: number;
  checkedAt: number;
  /** When the body last differed from the one before, and how. */
  lastChange?: { at: number; diff: BodyDiff };
  /** True for the first answer of a watch (nothing to compare yet). */
  first: boolean;
}

/** The watched tab's lines, above its header block's own: the watch, when it last changed, the diff. */
export function watchTabLines(state: WatchTabState, locale = 'en'): string[] {
  const lines = [l10n.t('Watching: sent again every {0} s (Stop Watch ends it); checked at {1}', state.intervalSeconds, timeOfDay(state.checkedAt, locale))];
  if (!state.lastChange) {
    lines.push(state.first ? l10n.t('First answer of the watch: later answers are compared with it') : l10n.t('No change since the watch started'));
    return lines;
  }
  const { at, diff } = state.lastChange;
  lines.push(l10n.t('last changed at {0} (+{1} −{2} lines); what changed:', timeOfDay(at, locale), diff.added, diff.removed));
  lines.push(...diff.lines.map((line) => `  ${line}`));
  if (diff.truncated) lines.push(`  ${l10n.t('… more changes not shown')}`);
  return lines;
}

/** Why a watch ended, as its notification says it. */
export function watchStopMessage(reason: WatchStopReason, label: string, detail?: string): string {
  switch (reason) {
    case 'errorAnswer':
      return l10n.t('Stopped watching {0}: the answer was an error ({1}).', label, detail ?? '');
    case 'signedOut':
      return l10n.t('Stopped watching {0}: you signed out.', label);
    case 'environmentSwitched':
      return l10n.t('Stopped watching {0}: another environment is active.', label);
    case 'environmentRemoved':
      return l10n.t('Stopped watching {0}: its environment is no longer in the settings.', label);
    case 'stoppedByUser':
      return l10n.t('Stopped watching {0}.', label);
  }
}

/** `cached 2 min ago`: the age of a static resource's kept answer. */
export function cachedAge(ageMs: number): string {
  const seconds = Math.max(0, Math.floor(ageMs / 1000));
  if (seconds < 5) return l10n.t('cached just now');
  if (seconds < 60) return l10n.t('cached {0} s ago', seconds);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return l10n.t('cached {0} min ago', minutes);
  return l10n.t('cached {0} h ago', Math.floor(minutes / 60));
}

/** The header block's line of a cached answer. */
export function cachedAnswerLine(ageMs: number): string {
  return l10n.t('{0}: a static resource\'s kept answer, nothing was sent (Refresh sends it)', cachedAge(ageMs));
}
