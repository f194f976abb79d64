import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { TenantResolver } from '../api/tenantResolver';
import type { ApiResponse, TenantApi, TenantRecord } from '../api/types';
import type { Logger } from '../common/logger';
import { COMMAND } from '../common/commandIds';
import { comparableBody, comparableDiff, type BodyDiff } from '../engine/bodyDiff';
import { callPlatform } from '../engine/sender';
import { nextDueAt, validScale, watchCallsPerHour, watchIntervalSeconds, type WatchStopReason } from '../engine/watchSchedule';
import { readResponseTabPerRequest, readWatchIntervalSeconds } from '../settings/editorSettings';
import type { ResponseDocuments } from '../views/responseDocuments';
import { dataSelector, responseTabKey, responseTitle, selectorLine } from '../views/responsePresentation';
import { watchPauseMessage, watchResumeMessage, watchStopMessage, watchTabLines } from '../views/watchPresentation';

/** What a watch is, and all a pinned one keeps (workspaceState): never a header, a body or a secret. */
export interface WatchDescription {
  method: 'GET';
  /** The platform path with its query. */
  path: string;
  /** The tenant's code (or id), for a tenant-scoped path. */
  tenant?: string;
  /** The environment it was started in. */
  environment: string;
}

/** A watch as the status bar, its list and the tests see it. */
export interface WatchInfo {
  id: number;
  label: string;
  description: WatchDescription;
  intervalSeconds: number;
  pinned: boolean;
  calls: number;
  checkedAt?: number;
  lastChangedAt?: number;
  /** The response tab it updates, once it has answered. */
  document?: string;
  /** Its environment is not the active one: it makes no calls until that environment is active again. */
  paused: boolean;
}

interface ActiveWatch extends WatchInfo {
  timer?: ReturnType<typeof setTimeout>;
  /** When the previous answer came (a call is due an interval after it), wall-clock ms; none before the first. */
  lastAnsweredAt?: number;
  /** A call of it is on its way (a resume must not start another). */
  inFlight?: boolean;
  /** The previous answer's body as comparableBody laid it out. */
  previousBody?: string;
  lastChange?: { at: number; diff: BodyDiff };
}

export interface WatchesDeps {
  /** The active environment's client and tenant resolver, at each call: a watch sends through the one client (its throttle). */
  api: () => Pick<TenantApi, 'send' | 'routeFor'>;
  tenants: () => Pick<TenantResolver, 'resolve'>;
  environmentName: () => string;
  responses: ResponseDocuments;
  /** workspaceState: the pinned watches' descriptions. */
  state: vscode.Memento;
  logger: Logger;
}

const PINNED_KEY = 'tenantApi.watch.pinned';

/**
 * The active watches: each sends its GET at once, then again an interval after its previous answer (never
 * under a minute, src/engine/watchSchedule.ts), shows the answer in the request's response tab with when it
 * last changed and the diff, and stops on an error answer, a sign-out or Stop. Another environment made
 * active pauses them; that environment active again resumes them. They live in memory; a pinned one's
 * description is in workspaceState and is started again at the next activation (in its environment,
 * once signed in).
 */
export class Watches implements vscode.Disposable {
  private readonly active = new Map<number, ActiveWatch>();
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changes.event;
  private counter = 0;
  /** The in-editor tests' only (through activate()'s test exports): a scaled minute, as the sandbox's time scale. */
  private timeScale = 1;

  constructor(private readonly deps: WatchesDeps) {}

  list(): WatchInfo[] {
    return [...this.active.values()].map(({ timer: _timer, previousBody: _body, lastChange: _change, lastAnsweredAt: _at, inFlight: _flight, ...info }) => ({ ...info }));
  }

  /** What the running watches cost; paused ones make no calls. */
  callsPerHour(): number {
    return watchCallsPerHour([...this.active.values()].filter((watch) => !watch.paused).map((watch) => watch.intervalSeconds));
  }

  /** Starts watching (or says it is watched already): the first call at once, then one an interval after each answer. */
  start(description: Omit<WatchDescription, 'environment'>, options: { pinned?: boolean; quiet?: boolean } = {}): WatchInfo {
    const full: WatchDescription = { method: 'GET', path: description.path, tenant: description.tenant, environment: this.deps.environmentName() };
    const existing = [...this.active.values()].find((watch) => sameWatch(watch.description, full));
    if (existing) {
      if (!options.quiet) void vscode.window.showInformationMessage(vscode.l10n.t('{0} is watched already.', existing.label));
      return this.infoOf(existing);
    }
    const watch: ActiveWatch = {
      id: ++this.counter,
      label: responseTitle('GET', full.path, undefined, undefined) + (full.tenant ? ` · ${full.tenant}` : ''),
      description: full,
      intervalSeconds: watchIntervalSeconds(readWatchIntervalSeconds()),
      pinned: options.pinned === true,
      calls: 0,
      paused: false,
    };
    this.active.set(watch.id, watch);
    this.schedule(watch);
    if (watch.pinned) void this.savePins();
    this.changes.fire();
    if (!options.quiet) void vscode.window.showInformationMessage(vscode.l10n.t('Watching {0}: sent now, then every {1} s.', watch.label, watch.intervalSeconds));
    return this.infoOf(watch);
  }

  stop(id: number, reason: WatchStopReason, detail?: string): void {
    const watch = this.active.get(id);
    if (!watch) return;
    if (watch.timer) clearTimeout(watch.timer);
    this.active.delete(id);
    // Only the user's Stop forgets a pin: the other reasons end this session's watch, not the wish.
    if (reason === 'stoppedByUser' && watch.pinned) void this.savePins(id);
    this.changes.fire();
    this.deps.logger.info(`Watch of ${watch.label} stopped: ${reason}${detail ? ` (${detail})` : ''}`);
    const message = watchStopMessage(reason, watch.label, detail);
    if (reason === 'errorAnswer') void vscode.window.showWarningMessage(message);
    else void vscode.window.showInformationMessage(message);
  }

  /** Stops the running watches of an environment (signed out there, or the environment removed); paused ones only when it was removed. */
  stopEnvironment(environment: string, reason: WatchStopReason): void {
    for (const watch of [...this.active.values()]) {
      if (watch.description.environment === environment && (!watch.paused || reason === 'environmentRemoved')) this.stop(watch.id, reason);
    }
  }

  /**
   * Another environment is active: this one's watches pause (their answers belong to its application
   * and sign-in) and say so; they resume when it is active again (resumeEnvironment).
   */
  pauseEnvironment(environment: string, activeNow: string): void {
    const paused = [...this.active.values()].filter((watch) => watch.description.environment === environment && !watch.paused);
    if (paused.length === 0) return;
    for (const watch of paused) {
      if (watch.timer) clearTimeout(watch.timer);
      watch.timer = undefined;
      watch.paused = true;
    }
    this.changes.fire();
    this.deps.logger.info(`Paused ${paused.length} watch(es) of "${environment}": "${activeNow}" is active.`);
    void vscode.window.showInformationMessage(watchPauseMessage(paused.map((watch) => watch.label), environment, activeNow));
  }

  /**
   * The active environment is signed in (activation, a sign-in, a switch back): its paused watches go on
   * where they were, and its pinned watches that are not running start.
   */
  resumeEnvironment(): void {
    const environment = this.deps.environmentName();
    const resumed = [...this.active.values()].filter((watch) => watch.description.environment === environment && watch.paused);
    for (const watch of resumed) {
      watch.paused = false;
      if (!watch.inFlight && !watch.timer) this.schedule(watch);
    }
    for (const description of this.pinned()) {
      if (description.environment === environment) this.start(description, { pinned: true, quiet: true });
    }
    if (resumed.length === 0) return;
    this.changes.fire();
    void vscode.window.showInformationMessage(watchResumeMessage(resumed.map((watch) => watch.label), environment));
  }

  /** Pins (or unpins) a watch: a pinned one is started again after a reload. */
  async pin(id: number, pinned = true): Promise<void> {
    const watch = this.active.get(id);
    if (!watch) return;
    watch.pinned = pinned;
    await this.savePins();
    this.changes.fire();
  }

  /** The watch whose answers a response tab shows. */
  watchOfDocument(uri: string): WatchInfo | undefined {
    const watch = [...this.active.values()].find((candidate) => candidate.document === uri);
    return watch && this.infoOf(watch);
  }

  /** What workspaceState holds: only well-formed descriptions. */
  pinned(): WatchDescription[] {
    const stored = this.deps.state.get<unknown>(PINNED_KEY, []);
    return (Array.isArray(stored) ? stored : []).filter(isDescription);
  }

  /** Forgets every pin (the tests' clean-up: a pin would start its watch in the next suite). */
  async clearPins(): Promise<void> {
    for (const watch of this.active.values()) watch.pinned = false;
    await this.deps.state.update(PINNED_KEY, []);
    this.changes.fire();
  }

  setTimeScale(scale: number): void {
    this.timeScale = validScale(scale);
  }

  dispose(): void {
    for (const watch of this.active.values()) if (watch.timer) clearTimeout(watch.timer);
    this.active.clear();
    this.changes.dispose();
  }

  private infoOf(watch: ActiveWatch): WatchInfo {
    return this.list().find((info) => info.id === watch.id)!;
  }

  private async savePins(without?: number): Promise<void> {
    const running = [...this.active.values()].filter((watch) => watch.pinned && watch.id !== without).map((watch) => watch.description);
    // The pins of environments with no watch in memory (not active since the reload) stay as stored.
    const inMemory = new Set([...this.active.values()].map((watch) => watch.description.environment));
    const elsewhere = this.pinned().filter((description) => description.environment !== this.deps.environmentName() && !inMemory.has(description.environment));
    // Only these four fields: a description from the tree, a tab or a request file never carries headers.
    const kept = [...elsewhere, ...running].map(({ method, path, tenant, environment }) => ({ method, path, ...(tenant ? { tenant } : {}), environment }));
    await this.deps.state.update(PINNED_KEY, kept);
  }

  private schedule(watch: ActiveWatch): void {
    watch.intervalSeconds = watchIntervalSeconds(readWatchIntervalSeconds());
    const wait = Math.max(0, nextDueAt(watch.lastAnsweredAt, watch.intervalSeconds, this.timeScale) - Date.now());
    watch.timer = setTimeout(() => void this.tick(watch), wait);
  }

  private async tick(watch: ActiveWatch): Promise<void> {
    watch.timer = undefined;
    if (!this.active.has(watch.id) || watch.paused) return;
    const { path, tenant } = watch.description;
    watch.inFlight = true;
    const { tenant: record, response, error } = await callPlatform(
      { method: 'GET', path, tenant, bypassCache: true },
      { api: this.deps.api(), tenants: this.deps.tenants() },
    ).finally(() => (watch.inFlight = false));
    const answeredAt = Date.now();
    watch.lastAnsweredAt = answeredAt;
    watch.calls++;
    // Paused on its way (a switch of environment): what came back is not this environment's to judge.
    if (!this.active.has(watch.id) || watch.paused) return;
    if (!response || response.status >= 400) {
      if (isApiError(error) && error.kind === 'cancelled') return;
      this.stop(watch.id, 'errorAnswer', response ? `${response.status} ${response.statusText}`.trim() : isApiError(error) ? error.message : String(error));
      return;
    }
    try {
      await this.show(watch, record, response, answeredAt);
    } catch (showError) {
      this.deps.logger.warn(`Watch of ${watch.label}: could not show the answer: ${String(showError)}`);
    }
    if (!this.active.has(watch.id) || watch.paused) return;
    this.schedule(watch);
    this.changes.fire();
  }

  /** The answer in the request's response tab, with the watch's lines: when it last changed and what changed. */
  private async show(watch: ActiveWatch, tenant: TenantRecord | undefined, response: ApiResponse, answeredAt: number): Promise<void> {
    const first = watch.previousBody === undefined;
    const body = comparableBody(response.bodyText);
    const diff = first ? undefined : comparableDiff(watch.previousBody!, body);
    if (diff?.changed) {
      watch.lastChange = { at: answeredAt, diff };
      watch.lastChangedAt = answeredAt;
    }
    watch.previousBody = body;
    watch.checkedAt = answeredAt;
    if (tenant?.codiceAmbienteDati) watch.description.tenant = tenant.codiceAmbienteDati;
    if (first && tenant?.codiceAmbienteDati) watch.label = responseTitle('GET', watch.description.path, undefined, undefined) + ` · ${tenant.codiceAmbienteDati}`;
    // Every answer updates the request's tab where it is; the first shows it when no tab does (focus kept), never covering another editor later.
    const { uri } = await this.deps.responses.keep(response, this.tabOptions(watch, tenant, response, first, answeredAt));
    if (first && !isOpen(uri)) await this.deps.responses.reveal(uri, true);
    watch.document = uri.toString();
  }

  /** The same tab as Send Request's and the tree's for this request (title, key), with the watch's lines and Stop Watch. */
  private tabOptions(watch: ActiveWatch, tenant: TenantRecord | undefined, response: ApiResponse, first: boolean, answeredAt: number) {
    const [pathOnly, queryText = ''] = watch.description.path.split(/\?(.*)/s);
    const selector = dataSelector(this.deps.api().routeFor(pathOnly), tenant, response.licence);
    const lines = watchTabLines({ intervalSeconds: watch.intervalSeconds, checkedAt: answeredAt, lastChange: watch.lastChange, first }, vscode.env.language);
    const query = Object.fromEntries(new URLSearchParams(queryText));
    return {
      title: responseTitle('GET', pathOnly, selector, response.status),
      tabKey: responseTabKey({ method: 'GET', path: pathOnly, tenantId: tenant?.id, query }, selector, readResponseTabPerRequest()),
      receivedAt: answeredAt,
      context: [...lines, selectorLine(selector)],
      request: { headers: response.requestHeaders },
      actions: [{ title: `$(eye-closed) ${vscode.l10n.t('Stop Watch')}`, command: COMMAND.stopWatch }],
    };
  }
}

function isOpen(uri: vscode.Uri): boolean {
  return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString()));
}

function sameWatch(a: WatchDescription, b: WatchDescription): boolean {
  return a.path === b.path && a.environment === b.environment && (a.tenant ?? '').toLowerCase() === (b.tenant ?? '').toLowerCase();
}

function isDescription(value: unknown): value is WatchDescription {
  const candidate = value as Partial<WatchDescription> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.method === 'GET' &&
    typeof candidate.path === 'string' &&
    candidate.path.startsWith('/') &&
    typeof candidate.environment === 'string' &&
    (candidate.tenant === undefined || typeof candidate.tenant === 'string')
  );
}
