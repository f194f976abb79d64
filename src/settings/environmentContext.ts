import * as vscode from 'vscode';
import type { Logger } from '../common/logger';
import { environmentStateKey, type EnvironmentState } from './activeEnvironment';
import { environmentSecrets } from './environmentSecrets';
import type { Environment } from './environments';

/** globalState as one environment sees it: its own keys (environmentStateKey); the default keeps today's. */
function environmentGlobalState(state: vscode.ExtensionContext['globalState'], environmentId: string): vscode.ExtensionContext['globalState'] {
  const prefix = environmentStateKey(environmentId, 'tenantApi.');
  return {
    get: ((key: string, fallback?: unknown) => state.get(environmentStateKey(environmentId, key), fallback)) as vscode.Memento['get'],
    update: (key, value) => state.update(environmentStateKey(environmentId, key), value),
    keys: () =>
      state.keys().flatMap((key) => {
        if (environmentId === 'default') return key.startsWith('tenantApi.env/') ? [] : [key];
        return key.startsWith(prefix) ? [`tenantApi.${key.slice(prefix.length)}`] : [];
      }),
    setKeysForSync: () => undefined,
  };
}

/**
 * The extension context as one environment's parts see it: their own subscriptions (disposed when
 * another environment becomes active), globalState and secrets in the environment's namespace.
 * Everything else is the extension's own context.
 */
export function environmentContext(context: vscode.ExtensionContext, environment: Environment, subscriptions: vscode.Disposable[]): vscode.ExtensionContext {
  const overrides: Partial<Record<keyof vscode.ExtensionContext, unknown>> = {
    subscriptions,
    globalState: environmentGlobalState(context.globalState, environment.id),
    secrets: environmentSecrets(context.secrets, environment.id),
  };
  // The editor's context is frozen, and a Proxy may not report another value for a frozen property
  // of its target: so the target is an empty object and every other read goes to the real context.
  return new Proxy({} as vscode.ExtensionContext, {
    get: (_target, property) =>
      Object.prototype.hasOwnProperty.call(overrides, property) ? overrides[property as keyof vscode.ExtensionContext] : Reflect.get(context, property, context),
  });
}

/**
 * The parts that belong to the active environment (sign-in, client, views, commands): built for it
 * through an environment context, and built anew, the old ones disposed, whenever another environment
 * becomes active. No reload. A change to the active one's settings needs no rebuild: its parts read
 * them through `environment()`, which follows the settings of that environment (by id, so a part of
 * the previous environment still finishing a call never reads the next one's addresses).
 */
export class EnvironmentScopes<T> implements vscode.Disposable {
  private subscriptions: vscode.Disposable[] = [];
  private value: T;
  private readonly listener: vscode.Disposable;
  private readonly rebuilt = new vscode.EventEmitter<Environment>();
  readonly onDidRebuild = this.rebuilt.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly environments: EnvironmentState,
    private readonly build: (scoped: vscode.ExtensionContext, environment: () => Environment) => T,
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
    return this.build(environmentContext(this.context, environment, this.subscriptions), current);
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
