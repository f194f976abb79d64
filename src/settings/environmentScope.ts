import * as vscode from 'vscode';
import type { Logger } from '../common/logger';
import type { SecretStore } from '../common/secretStore';
import { environmentStateKey, type EnvironmentState } from './activeEnvironment';
import { environmentSecrets } from './environmentSecrets';
import type { Environment } from './environments';

/**
 * What a part built for one environment (its sign-in, client, views, commands) gets instead of the
 * extension's context: that environment, its own secrets, globalState and subscriptions. The extension's
 * context holds the secret storage of every environment, and only the composition root has it (the
 * architecture test): a part that stores a secret stores it in its environment's namespace, so an
 * environment's token and keys never reach another's hosts.
 */
export interface EnvironmentScope {
  /** The environment as its settings are now (followed by id: a part of the previous one still finishing a call never reads the next one's). */
  readonly environment: () => Environment;
  /** The environment's secrets (`tenantApi.env/<id>/…`). */
  readonly secrets: SecretStore;
  /** globalState as this environment sees it: its own keys (environmentStateKey); the default keeps today's. */
  readonly globalState: vscode.Memento;
  /** Disposed when another environment becomes active. */
  readonly subscriptions: vscode.Disposable[];
  /** The extension's id (the sign-in's redirect URI, the walkthrough). */
  readonly extensionId: string;
}

/** What the composition root hands over to make each environment's scope: the extension's own storage. */
export interface ExtensionStorage {
  secrets: SecretStore;
  globalState: vscode.Memento;
  extensionId: string;
}

/** globalState as one environment sees it: its own keys (environmentStateKey); the default keeps today's. */
function environmentGlobalState(state: vscode.Memento, environmentId: string): vscode.Memento {
  const prefix = environmentStateKey(environmentId, 'tenantApi.');
  return {
    get: ((key: string, fallback?: unknown) => state.get(environmentStateKey(environmentId, key), fallback)) as vscode.Memento['get'],
    update: (key, value) => state.update(environmentStateKey(environmentId, key), value),
    keys: () =>
      state.keys().flatMap((key) => {
        if (environmentId === 'default') return key.startsWith('tenantApi.env/') ? [] : [key];
        return key.startsWith(prefix) ? [`tenantApi.${key.slice(prefix.length)}`] : [];
      }),
  };
}

/** The scope of one environment over the extension's storage (see EnvironmentScope). */
export function environmentScope(storage: ExtensionStorage, environment: () => Environment, id: string, subscriptions: vscode.Disposable[]): EnvironmentScope {
  return {
    environment,
    secrets: environmentSecrets(storage.secrets, id),
    globalState: environmentGlobalState(storage.globalState, id),
    subscriptions,
    extensionId: storage.extensionId,
  };
}

/**
 * The parts that belong to the active environment (sign-in, client, views, commands): built for it
 * in its EnvironmentScope, and built anew, the old ones disposed, whenever another environment
 * becomes active. No reload. A change to the active one's settings needs no rebuild: its parts read
 * them through `scope.environment()`.
 */
export class EnvironmentScopes<T> implements vscode.Disposable {
  private subscriptions: vscode.Disposable[] = [];
  private value: T;
  private readonly listener: vscode.Disposable;
  private readonly rebuilt = new vscode.EventEmitter<Environment>();
  readonly onDidRebuild = this.rebuilt.event;

  constructor(
    private readonly storage: ExtensionStorage,
    private readonly environments: EnvironmentState,
    private readonly build: (scope: EnvironmentScope) => T,
    private readonly logger: Logger,
    /** When a change to the active environment's settings needs its parts built anew (say, another application). */
    private readonly rebuildWhen: (previous: Environment, next: Environment) => boolean = () => false,
  ) {
    this.value = this.buildFor(environments.active());
    this.listener = environments.onDidChange(({ previous, active, switched }) => {
      if (!switched && !this.rebuildWhen(previous, active)) return;
      this.logger.info(switched ? `Environment "${active.name}" is now active.` : `Environment "${active.name}" now uses another application.`);
      this.disposeScope();
      this.value = this.buildFor(active);
      this.rebuilt.fire(active);
    });
  }

  /** The active environment's parts: ask at each use, never keep them (a switch replaces them). */
  current(): T {
    return this.value;
  }

  dispose(): void {
    this.listener.dispose();
    this.disposeScope();
    this.rebuilt.dispose();
  }

  private buildFor(environment: Environment): T {
    this.subscriptions = [];
    let last = environment;
    const current = () => (last = this.environments.get(environment.id) ?? last);
    return this.build(environmentScope(this.storage, current, environment.id, this.subscriptions));
  }

  private disposeScope(): void {
    for (const disposable of this.subscriptions.splice(0).reverse()) {
      try {
        disposable.dispose();
      } catch (error) {
        this.logger.warn(`Disposing a part of the previous environment failed: ${String(error)}`);
      }
    }
  }
}
