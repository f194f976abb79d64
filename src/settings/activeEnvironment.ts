import { Emitter, type Disposable } from '../common/event';
import { chooseActiveEnvironment, type Environment, type EnvironmentList } from './environments';

/** The part of vscode.Memento (globalState) used here. */
export interface StateMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** globalState key of the active environment's id: not a secret, and it survives a window reload. */
export const ACTIVE_ENVIRONMENT_KEY = 'tenantApi.activeEnvironment';

/**
 * The globalState key of one environment's copy of a `tenantApi.*` value (history, active account,
 * active tenant). The default environment keeps today's keys, so its state needs no migration.
 */
export function environmentStateKey(environmentId: string, key: string): string {
  if (environmentId === 'default') return key;
  return `tenantApi.env/${environmentId}/${key.replace(/^tenantApi\./, '')}`;
}

/** A memento in which one environment's values live under their own keys (environmentStateKey). */
export function environmentMemento(memento: StateMemento, environmentId: string): StateMemento {
  return {
    get: <T>(key: string) => memento.get<T>(environmentStateKey(environmentId, key)),
    update: (key, value) => memento.update(environmentStateKey(environmentId, key), value),
  };
}

export interface EnvironmentChange {
  previous: Environment;
  active: Environment;
  /** True when another environment became active; false when the active one's settings changed. */
  switched: boolean;
}

/**
 * The environments in force and the active one. Fires when another environment becomes active
 * (a switch, or the active one was removed from the settings) and when the active one's effective
 * settings change; never for changes to the others.
 */
export class EnvironmentState implements Disposable {
  private current: EnvironmentList;
  private activeEnvironment: Environment;
  private readonly changes = new Emitter<EnvironmentChange>();
  private readonly listChanges = new Emitter<void>();
  readonly onDidChange = this.changes.event;
  /** After every update from the settings (an environment added, renamed, removed), after onDidChange. */
  readonly onDidChangeList = this.listChanges.event;

  constructor(
    private readonly memento: StateMemento,
    initial: EnvironmentList,
  ) {
    this.current = initial;
    this.activeEnvironment = chooseActiveEnvironment(initial.environments, memento.get<string>(ACTIVE_ENVIRONMENT_KEY));
  }

  list(): readonly Environment[] {
    return this.current.environments;
  }

  problems(): readonly string[] {
    return this.current.problems;
  }

  active(): Environment {
    return this.activeEnvironment;
  }

  /** The environment with this id as the settings define it now; undefined once it is removed. */
  get(id: string): Environment | undefined {
    return this.current.environments.find((environment) => environment.id === id);
  }

  /** Makes the environment with this id the active one and remembers it; false when there is none. */
  async switchTo(id: string): Promise<boolean> {
    const next = this.current.environments.find((environment) => environment.id === id);
    if (!next) return false;
    await this.memento.update(ACTIVE_ENVIRONMENT_KEY, id);
    if (next.id !== this.activeEnvironment.id) this.replaceActive(next, true);
    return true;
  }

  /** The settings changed: the active environment stays active while it exists (by id). */
  update(list: EnvironmentList): void {
    this.current = list;
    const sameId = list.environments.find((environment) => environment.id === this.activeEnvironment.id);
    const next = sameId ?? chooseActiveEnvironment(list.environments, this.memento.get<string>(ACTIVE_ENVIRONMENT_KEY));
    if (next.id !== this.activeEnvironment.id) this.replaceActive(next, true);
    else if (JSON.stringify(next) !== JSON.stringify(this.activeEnvironment)) this.replaceActive(next, false);
    else this.activeEnvironment = next;
    this.listChanges.fire();
  }

  dispose(): void {
    this.changes.dispose();
    this.listChanges.dispose();
  }

  private replaceActive(next: Environment, switched: boolean): void {
    const previous = this.activeEnvironment;
    this.activeEnvironment = next;
    this.changes.fire({ previous, active: next, switched });
  }
}
