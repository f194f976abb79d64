/**
 * The runner's commands over their parts: `run` (settings, credentials, files, sign-in, the run,
 * reports, the exit code), `login` (the device code flow) and the help and version texts. Every
 * failure becomes one of the documented exit codes with a sentence on stderr.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FetchFunction } from '../api/httpTransport';
import { TokenClient } from '../auth/tokenClient';
import type { Clock } from '../common/clock';
import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { redactValue, registerSecret } from '../common/redact';
import type { AccessTokenSource } from '../common/sessions';
import { defaultSystemContext } from '../engine/systemVariables';
import { LICENCE_KEY_PREFIX, parseSecretLines, readCredentials, type Credentials } from './credentials';
import { EDITOR_SETTINGS_VARIABLE } from '../common/editorHandOver';
import { dryRunLines } from './dryRun';
import { exitCode, worstReason, type ExitReason } from './exitCodes';
import { runFiles, type LoadedFile } from './fileRun';
import { chooseGrant, grantHasUser, signIn, SignInFailedError } from './grants';
import { jsonReport } from './jsonReport';
import { junitXml } from './junitReport';
import { UsageError, usageText, type Arguments } from './options';
import type { Output } from './output';
import { createPlatform, type Platform } from './platform';
import { LedgerError } from '../coordination/redis/ledgerErrors';
import { ledgerFromEnvironment, ledgerFromUrl, type LedgerEndpoint } from '../coordination/redis/ledgerUrl';
import { progressReporter } from './progress';
import { startRefusal } from './quotaGuard';
import { exitReasons, type RunReport } from './report';
import { expandFiles, loadFiles } from './requestFiles';
import { summaryLines } from './summary';
import { readWorkspaceSettings, type WorkspaceSettings } from './workspaceSettings';
import { callsByModule } from '../engine/runPlan';

export interface CliDeps {
  env: NodeJS.ProcessEnv;
  cwd: string;
  output: Output;
  readStdin(): Promise<string>;
  fetch: FetchFunction;
  clock: Clock;
  logger(verbose: boolean): Logger;
  version: string;
  /** ms since the process started (performance.now()). */
  uptime(): number;
  /** Asks the person at the terminal for a secret, typed hidden; undefined when nobody is there (CI, a pipe). */
  ask?(question: string): Promise<string>;
}

interface Prepared {
  args: Arguments;
  settings: WorkspaceSettings;
  credentials: Credentials;
  logger: Logger;
  /** --ledger, else TENANT_API_LEDGER: the Redis ledger shared across machines. */
  ledger?: LedgerEndpoint;
}

async function prepare(args: Arguments, deps: CliDeps): Promise<Prepared> {
  const stdin = args.secretStdin ? parseSecretLines(await deps.readStdin()) : {};
  const credentials = readCredentials(deps.env, stdin);
  const settings = readWorkspaceSettings({ workspace: args.workspace, env: args.env, cwd: deps.cwd, editorSettings: deps.env[EDITOR_SETTINGS_VARIABLE] });
  const logger = deps.logger(args.verbosity === 'verbose');
  // Which installation and which settings: a run started from the editor says it as well as one in CI.
  if (args.verbosity !== 'quiet') deps.output.err(l10n.t('Environment "{0}", settings: {1}', settings.environment.name, settings.source));
  if (args.verbosity !== 'quiet' && args.tenant) deps.output.err(l10n.t('Requests that name no tenant go to {0} (--tenant).', args.tenant));
  for (const problem of settings.problems) deps.output.err(l10n.t('Settings: {0}', problem));
  if (!settings.api.baseUrl) throw new UsageError(l10n.t('No base URL: set tenantApi.baseUrl (or the environment\'s baseUrl) in {0}.', settings.file ?? settings.source));
  const ledger = args.ledger ? ledgerFromUrl(args.ledger, 'flag', deps.env) : ledgerFromEnvironment(deps.env);
  return { args, settings, credentials, logger, ledger };
}

/** The ledger's warnings (Redis lost, the local fallback) always reach stderr: they change how the run is limited. */
function ledgerLogger(logger: Logger, output: Output): Logger {
  return { ...logger, warn: (message, ...args) => output.err(`${l10n.t('Rate-limit ledger:')} ${[message, ...args].map(redactValue).join(' ')}`) };
}

function tokenClient(prepared: Prepared, deps: CliDeps): TokenClient {
  const { settings, credentials, logger } = prepared;
  if (!settings.auth.authUrl) throw new SignInFailedError(l10n.t('No authorization server: set tenantApi.authUrl (or the environment\'s authUrl).'));
  return new TokenClient({
    authUrl: settings.auth.authUrl,
    clientId: credentials.clientId ?? settings.auth.clientId,
    fetch: (input, init) => deps.fetch(input, init),
    logger,
    getClientSecret: async () => credentials.clientSecret,
  });
}

function writeReports(args: Arguments, report: RunReport, reason: ExitReason, deps: CliDeps): void {
  for (const reporter of args.reporters) {
    const file = path.resolve(deps.cwd, reporter.path);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, reporter.kind === 'junit' ? junitXml(report) : jsonReport(report, reason));
  }
}

async function platformFor(prepared: Prepared, tokens: AccessTokenSource, deps: CliDeps, sent: { first?: number }): Promise<Platform> {
  const { args, settings, credentials, logger } = prepared;
  const api = args.timeoutSeconds ? { ...settings.api, requestTimeoutSeconds: args.timeoutSeconds } : settings.api;
  return createPlatform({
    api,
    application: { authUrl: settings.auth.authUrl, clientId: credentials.clientId ?? settings.auth.clientId },
    tokens,
    licenceKeys: credentials.licenceKeys,
    tenant: args.tenant,
    variables: settings.environment.settings.variables,
    logger,
    fetch: (input, init) => {
      sent.first ??= deps.uptime();
      return deps.fetch(input, init);
    },
    ...(prepared.ledger ? { redis: { endpoint: prepared.ledger, fallback: args.ledgerFallback, logger: ledgerLogger(logger, deps.output) } } : {}),
  });
}

function load(prepared: Prepared, platform: Pick<Platform, 'client'>, deps: CliDeps): LoadedFile[] {
  const files = expandFiles(prepared.args.files, deps.cwd);
  const context = { routeFor: (p: string) => platform.client.routeFor(p), environment: prepared.settings.environment.settings.variables, system: defaultSystemContext() };
  return loadFiles(files, deps.cwd, context, (line) => prepared.args.verbosity !== 'quiet' && deps.output.err(line));
}

async function dryRun(prepared: Prepared, deps: CliDeps): Promise<number> {
  const tokens: AccessTokenSource = { getAccessToken: async () => Promise.reject(new Error('dry run')) };
  const platform = await platformFor(prepared, tokens, deps, {});
  try {
    const files = load(prepared, platform, deps);
    const lines = dryRunLines(files, {
      sources: (file) => platform.runner.sources(file.document.key, file.parsed),
      routeFor: (p) => platform.client.routeFor(p),
      hasKey: (module) => prepared.credentials.licenceKeys.has(module),
      readings: () => platform.quota.readings(),
    });
    for (const line of lines) deps.output.out(line);
    return exitCode('passed');
  } finally {
    platform.dispose();
  }
}

/** The person at the terminal, unless standard input carries the secrets (--secret-stdin) or nobody is there. */
function askerOf(args: Arguments, deps: CliDeps): CliDeps['ask'] {
  return args.secretStdin ? undefined : deps.ask;
}

/**
 * The licence keys the run's requests need and the environment does not hold, asked of the person at
 * the terminal (hidden; Enter skips one: its requests then fail saying so). Registered as secrets at once.
 */
async function askMissingKeys(planned: ReadonlyMap<string | undefined, number>, prepared: Prepared, platform: Platform, deps: CliDeps): Promise<void> {
  const ask = askerOf(prepared.args, deps);
  if (!ask) return;
  for (const module of planned.keys()) {
    if (module === undefined || prepared.credentials.licenceKeys.has(module)) continue;
    const key = await ask(l10n.t('Licence key of the module "{0}" ({1}; typed hidden, Enter to skip): ', module, `${LICENCE_KEY_PREFIX}${module.toUpperCase()}`));
    if (!key) continue;
    registerSecret(key);
    prepared.credentials.licenceKeys.set(module, key);
    await platform.addLicenceKey(module, key);
  }
}

async function run(prepared: Prepared, deps: CliDeps): Promise<number> {
  const { args, settings, credentials } = prepared;
  const grant = chooseGrant(args.grant, credentials, askerOf(args, deps) !== undefined);
  const signInStarted = deps.uptime();
  const tokens = await signIn(grant, credentials, { tokens: tokenClient(prepared, deps), clock: deps.clock, logger: prepared.logger, scopes: settings.auth.scopes, prompt: (text) => deps.output.err(text) });
  const signInMs = deps.uptime() - signInStarted;
  const sent: { first?: number; handed?: number } = {};
  const platform = await platformFor(prepared, tokens, deps, sent);
  try {
    const files = load(prepared, platform, deps);
    const planned = new Map<string | undefined, number>();
    for (const file of files) for (const [module, calls] of callsByModule(file.parsed, (p) => platform.client.routeFor(p))) planned.set(module, (planned.get(module) ?? 0) + calls);
    await askMissingKeys(planned, prepared, platform, deps);
    // The windows' quota readings come with the shared ledger: the guard reads them before the first call.
    if (args.keepQuotaPercent !== undefined) await platform.ready();
    const refusal = startRefusal(platform.quota.readings(), planned, args);
    if (refusal) {
      deps.output.err(refusal);
      return exitCode('quotaGuard');
    }
    const report = await runFiles(
      files,
      {
        runner: {
          send: (document, index, options) => {
            sent.handed ??= deps.uptime();
            return platform.runner.send(document, index, options);
          },
        },
        readings: () => platform.quota.readings(),
        routeFor: (p) => platform.client.routeFor(p),
        progress: progressReporter(deps.output, args.verbosity, () => platform.quota.readings()),
        tenantHint: grantHasUser(grant) ? undefined : l10n.t('The client credentials grant signs in no user, so no tenant is yours: use the password grant (TENANT_API_USERNAME and TENANT_API_PASSWORD) for requests that need a tenant.'),
        now: () => deps.clock.now(),
      },
      args,
      settings.environment.name,
    );
    report.signInMs = Math.round(signInMs);
    if (sent.handed !== undefined) report.firstRequestMs = Math.round(sent.handed - signInMs);
    if (sent.first !== undefined) report.firstOnWireMs = Math.round(sent.first - signInMs);
    deps.output.status('');
    const reason = worstReason(exitReasons(report));
    writeReports(args, report, reason, deps);
    for (const line of summaryLines(report, reason)) deps.output.out(line);
    return exitCode(reason);
  } finally {
    platform.dispose();
  }
}

async function login(prepared: Prepared, deps: CliDeps): Promise<number> {
  const client = tokenClient(prepared, deps);
  const tokens = await signIn('device', prepared.credentials, { tokens: client, clock: deps.clock, logger: prepared.logger, scopes: prepared.settings.auth.scopes, prompt: (text) => deps.output.err(text) });
  const info = await client.userInfo(await tokens.getAccessToken());
  deps.output.out(l10n.t('Signed in as {0} at {1}. Nothing was stored: a run signs in again (see --grant).', info.name ?? info.sub, prepared.settings.auth.authUrl));
  return exitCode('passed');
}

function failure(error: unknown, deps: CliDeps): number {
  deps.output.status('');
  if (error instanceof UsageError) {
    deps.output.err(error.message);
    return exitCode('usage');
  }
  if (error instanceof SignInFailedError) {
    deps.output.err(error.message);
    return exitCode('signIn');
  }
  if (error instanceof LedgerError) {
    deps.output.err(error.message);
    return exitCode(error.kind === 'unreachable' ? 'ledger' : 'usage');
  }
  throw error;
}

export async function runCli(args: Arguments | UsageError, deps: CliDeps): Promise<number> {
  try {
    if (args instanceof UsageError) throw args;
    if (args.command === 'help') {
      deps.output.out(usageText());
      return exitCode('passed');
    }
    if (args.command === 'version') {
      deps.output.out(deps.version);
      return exitCode('passed');
    }
    const prepared = await prepare(args, deps);
    if (args.command === 'login') return await login(prepared, deps);
    return await (args.dryRun ? dryRun(prepared, deps) : run(prepared, deps));
  } catch (error) {
    return failure(error, deps);
  }
}
