import * as vscode from 'vscode';
import type { Event } from '../../../common/event';
import type { Environment } from '../../../settings/environments';

/** What the run profiles need of the environments (src/settings/activeEnvironment.ts's EnvironmentState). */
export interface TestEnvironments {
  list(): readonly Environment[];
  active(): Environment;
  switchTo(id: string): Promise<boolean>;
  onDidChange: Event<unknown>;
  onDidChangeList: Event<void>;
}

export type ProfileRun = (environmentId: string, profile: vscode.TestRunProfile, request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<void>;

/** The profile's label: the environment's name, protected ones marked. */
function labelOf(environment: Environment): string {
  return environment.protected ? vscode.l10n.t('Run in {0} (protected)', environment.name) : vscode.l10n.t('Run in {0}', environment.name);
}

/**
 * One Run profile per configured environment, the active one the default, kept in step with the
 * settings: an environment added gets its profile, one removed loses it.
 */
export class EnvironmentRunProfiles implements vscode.Disposable {
  private readonly profiles = new Map<string, vscode.TestRunProfile>();
  private readonly listeners: vscode.Disposable[];

  constructor(
    private readonly controller: vscode.TestController,
    private readonly environments: TestEnvironments,
    private readonly run: ProfileRun,
  ) {
    this.listeners = [environments.onDidChangeList(() => this.sync()), environments.onDidChange(() => this.sync())];
    this.sync();
  }

  /** The profile of an environment (for the tests' hook and a run started by the extension itself). */
  profileOf(environmentId: string): vscode.TestRunProfile | undefined {
    return this.profiles.get(environmentId);
  }

  private sync(): void {
    const active = this.environments.active().id;
    const ids = new Set<string>();
    for (const environment of this.environments.list()) {
      ids.add(environment.id);
      let profile = this.profiles.get(environment.id);
      if (!profile) {
        const id = environment.id;
        profile = this.controller.createRunProfile(labelOf(environment), vscode.TestRunProfileKind.Run, (request, token) => this.run(id, profile!, request, token), id === active);
        this.profiles.set(id, profile);
      }
      profile.label = labelOf(environment);
      profile.isDefault = environment.id === active;
    }
    for (const [id, profile] of this.profiles) {
      if (ids.has(id)) continue;
      profile.dispose();
      this.profiles.delete(id);
    }
  }

  dispose(): void {
    for (const listener of this.listeners) listener.dispose();
    for (const profile of this.profiles.values()) profile.dispose();
    this.profiles.clear();
  }
}
