/**
 * The runner's commands over their parts: `run` (settings, credentials, files, sign-in, the run,
 * reports, the exit code), `login` (the device code flow) and the help and version texts. Every
 * failure becomes one of the documented exit codes with a sentence on stderr.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectionProblemOf } from '../api/connectionProblems';
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
import { runFiles, type FileRunDeps, type LoadedFile, type PlannedFile } from './fileRun';
import { importCommand, ImportFailed } from './importCommand';
import { chooseGrant, grantHasUser, signIn, SignInFailedError } from './grants';
import type { CliNetwork } from './network';
import { NETWORK_VARIABLES, readNetworkOptions, type NetworkOptions } from './networkOptions';
import { jsonReport } from './jsonReport';
import { junitXml } from './junitReport';
import { htmlReport } from './htmlReport';
import { markdownReport } from './markdownReport';
import { UsageError, usageText, type Arguments, type GrantChoice, type Reporter } from './options';
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
import { checkEnvironmentFiles, runnerEnvironmentFiles, workspaceRoot } from './environmentFiles';
import { fileEnvironmentName, type EnvironmentFiles } from '../settings/environmentFileSources';
import { readDataRows } from '../engine/documents';
import type { DataRow } from '../engine/runContext';
import type { TenantRecord } from '../api/types';
import { EVERY_TENANT, pinnedTenant, splitTenants } from '../engine/tenantList';
import { describeRun } from './runDescription';
import { planFiles, plannedByOrganization, type PlanDeps, type RunChoice } from './planRun';
import { StatisticsCounter } from './runStatistics';
import { describeFailure } from '../catalog/catalogues';
import { defaultOrganization } from './licenceVariables';

export interface CliDeps {
  env: NodeJS.ProcessEnv;
  cwd: string;
  output: Output;
  readStdin(): Promise<string>;
  /** The one way out of the process for every call (proxy, certificate authorities, client certificate). */
  network(options: NetworkOptions): CliNetwork;
  clock: Clock;
  logger(verbose: boolean): Logger;
  version: string;
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
  /** http-client.env.json, its private file and .env, beside the request files and above them. */
  environmentFiles: EnvironmentFiles;
  network: CliNetwork;
}

async function prepare(args: Arguments, deps: CliDeps): Promise<Prepared> {
  const stdin = args.secretStdin ? parseSecretLines(await deps.readStdin()) : {};
  const credentials = readCredentials(deps.env, stdin);
  // An environment only the env files name runs too: they are read from the workspace's root and the named files' folders.
  const fileEnvironments = (root: string) => {
    const files = runnerEnvironmentFiles(root, deps.cwd);
    const folders = [root, ...safeFiles(args.files, deps.cwd).map((file) => path.dirname(file))];
    return [...new Set(folders.flatMap((folder) => files.environmentNames(folder)))];
  };
  const settings = readWorkspaceSettings({ workspace: args.workspace, env: args.env, cwd: deps.cwd, editorSettings: deps.env[EDITOR_SETTINGS_VARIABLE], fileEnvironments });
  const logger = deps.logger(args.verbosity === 'verbose');
  // Which installation and which settings: a run started from the editor says it as well as one in CI.
  if (args.verbosity !== 'quiet') deps.output.err(l10n.t('Environment "{0}", settings: {1}', settings.environment.name, settings.source));
  // A matrix of tenants (--tenant A,B or *) says itself in the run's lines.
  const oneTenant = pinnedTenant(splitTenants(args.tenant));
  if (args.verbosity !== 'quiet' && oneTenant) deps.output.err(l10n.t('Requests that name no tenant go to {0} (--tenant).', oneTenant));
  for (const problem of settings.problems) deps.output.err(l10n.t('Settings: {0}', problem));
  if (!settings.api.baseUrl) throw new UsageError(l10n.t('No base URL: set tenantApi.baseUrl (or the environment\'s baseUrl) in {0}.', settings.place));
  const networkOptions = readNetworkOptions(args, deps.env, { passphrase: stdin[NETWORK_VARIABLES.passphrase] ?? deps.env[NETWORK_VARIABLES.passphrase] }, deps.cwd);
  for (const note of networkOptions.notes) deps.output.err(note);
  const network = deps.network(networkOptions);
  for (const line of network.describe()) logger.info(`Network: ${line}`);
  const endpoint = args.ledger ? ledgerFromUrl(args.ledger, 'flag', deps.env) : ledgerFromEnvironment(deps.env);
  // rediss:// trusts the same authorities as the calls (a ledger never gets the client certificate).
  const ledger = endpoint && { ...endpoint, tls: { ...(networkOptions.tls.ca ? { ca: networkOptions.tls.ca } : {}), rejectUnauthorized: true as const } };
  const environmentFiles = runnerEnvironmentFiles(workspaceRoot(settings.file, deps.cwd), deps.cwd);
  return { args, settings, credentials, logger, ledger, network, environmentFiles };
}

/** The request files named, or none when a name matches nothing (the run says so itself, later). */
function safeFiles(patterns: readonly string[], cwd: string): string[] {
  try {
    return expandFiles(patterns, cwd);
  } catch {
    return [];
  }
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
    fetch: (input, init) => prepared.network.fetch(input, init),
    logger,
    getClientSecret: async () => credentials.clientSecret,
  });
}

const WRITERS: Record<Reporter['kind'], (report: RunReport, reason: ExitReason) => string> = {
  junit: (report) => junitXml(report),
  json: jsonReport,
  html: htmlReport,
  markdown: markdownReport,
};

/** Each --reporter's file; the Markdown one also at the end of $GITHUB_STEP_SUMMARY (GitHub Actions' job summary) when set. */
function writeReports(args: Arguments, report: RunReport, reason: ExitReason, deps: CliDeps): void {
  for (const reporter of args.reporters) {
    const file = path.resolve(deps.cwd, reporter.path);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, WRITERS[reporter.kind](report, reason));
  }
  const summary = deps.env.GITHUB_STEP_SUMMARY;
  if (summary && args.reporters.some((reporter) => reporter.kind === 'markdown')) fs.appendFileSync(summary, `${markdownReport(report, reason)}\n`);
}

async function platformFor(prepared: Prepared, tokens: AccessTokenSource, deps: CliDeps, counter?: StatisticsCounter): Promise<Platform> {
  const { args, settings, credentials, logger } = prepared;
  const api = args.timeoutSeconds ? { ...settings.api, requestTimeoutSeconds: args.timeoutSeconds } : settings.api;
  return createPlatform({
    api,
    application: { authUrl: settings.auth.authUrl, clientId: credentials.clientId ?? settings.auth.clientId },
    tokens,
    licenceKeys: credentials.licenceKeys,
    organizationTenants: credentials.organizationTenants,
    tenant: pinnedTenant(splitTenants(args.tenant)),
    variables: settings.environment.settings.variables,
    fileEnvironment: (key) => prepared.environmentFiles.forFolder(path.dirname(key), fileEnvironmentName(settings.environment)),
    logger,
    fetch: (counter ?? new StatisticsCounter(() => 0)).counting((input, init) => prepared.network.fetch(input, init)),
    ...(prepared.ledger ? { redis: { endpoint: prepared.ledger, fallback: args.ledgerFallback, logger: ledgerLogger(logger, deps.output) } } : {}),
    catalogues: { entries: settings.catalogues, folder: settings.folder },
  });
}

/** The catalogues read before the files are checked (their routes are the files' too); one that cannot be read is named, the run goes on. */
async function loadCatalogues(platform: Pick<Platform, 'catalogues'>, deps: CliDeps): Promise<void> {
  if (!platform.catalogues.configured()) return;
  await platform.catalogues.ready();
  for (const catalogue of platform.catalogues.list()) {
    if (catalogue.state.kind === 'failed') deps.output.err(l10n.t('Catalogue {0}: {1}', catalogue.name, describeFailure(catalogue.state.error)));
  }
}

function load(prepared: Prepared, platform: Pick<Platform, 'client'>, deps: CliDeps): LoadedFile[] {
  const files = expandFiles(prepared.args.files, deps.cwd);
  const context = { routeFor: (p: string) => platform.client.routeFor(p), environment: prepared.settings.environment.settings.variables, system: defaultSystemContext() };
  checkEnvironmentFiles(prepared.environmentFiles, files.map((file) => path.dirname(file)), fileEnvironmentName(prepared.settings.environment));
  return loadFiles(files, deps.cwd, context, (line) => prepared.args.verbosity !== 'quiet' && deps.output.err(line));
}

async function dryRun(prepared: Prepared, deps: CliDeps): Promise<number> {
  const tokens: AccessTokenSource = { getAccessToken: async () => Promise.reject(new Error('dry run')) };
  const platform = await platformFor(prepared, tokens, deps);
  try {
    await loadCatalogues(platform, deps);
    const files = load(prepared, platform, deps);
    // Nothing is listed without a sign-in: `*` stands for one tenant in the cost, and the dry run says so.
    const every: TenantRecord = { id: EVERY_TENANT, codiceAmbienteDati: EVERY_TENANT, descrizioneAmbienteDati: EVERY_TENANT, clusterAddress: '', usable: true };
    const planned = await planFiles(files, runChoice(prepared.args, deps), { ...planDeps(platform), listTenants: async () => [every], knownTenants: () => undefined });
    const lines = dryRunLines(files, {
      sources: (file) => platform.runner.sources(file.document.key, file.parsed),
      routeFor: (p) => platform.client.routeFor(p),
      hasKey: (module) => prepared.credentials.licenceKeys.has(module),
      readings: () => platform.quota.readings(),
      calls: await plannedByOrganization(planned, { ...planDeps(platform), routeFor: (p) => platform.client.routeFor(p), organizationOf: async () => undefined }),
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
async function askMissingKeys(planned: readonly PlannedFile[], prepared: Prepared, platform: Platform, deps: CliDeps): Promise<void> {
  const ask = askerOf(prepared.args, deps);
  if (!ask) return;
  // The planned calls by module: each module's "organization" is the module itself here.
  const byModule = await plannedByOrganization(planned, { ...planDeps(platform), routeFor: (p) => platform.client.routeFor(p), organizationOf: async (module) => module });
  for (const module of byModule.keys()) {
    if (module === undefined || prepared.credentials.licenceKeys.has(module)) continue;
    const variable = `${LICENCE_KEY_PREFIX}${module.toUpperCase()}`;
    const key = await ask(l10n.t('Licence key of the module "{0}" ({1}; typed hidden, Enter to skip): ', module, variable));
    if (!key) continue;
    registerSecret(key);
    prepared.credentials.licenceKeys.set(module, key);
    await platform.licenceKeys.put(module, { key, label: variable, organization: defaultOrganization(variable) });
  }
}

async function run(prepared: Prepared, deps: CliDeps): Promise<number> {
  const { args, settings, credentials } = prepared;
  const grant = chooseGrant(args.grant, credentials, askerOf(args, deps) !== undefined);
  const tokens = await signIn(grant, credentials, { tokens: tokenClient(prepared, deps), clock: deps.clock, logger: prepared.logger, scopes: settings.auth.scopes, prompt: (text) => deps.output.err(text) });
  const counter = new StatisticsCounter(() => deps.clock.now());
  const platform = await platformFor(prepared, tokens, deps, counter);
  try {
    await loadCatalogues(platform, deps);
    const files = load(prepared, platform, deps);
    const organizationOf = organizationLookup(platform);
    const planned = await planFiles(files, runChoice(args, deps), planDeps(platform));
    await askMissingKeys(planned, prepared, platform, deps);
    // The windows' quota readings come with the shared ledger: the guard reads them before the first call.
    if (args.keepQuotaPercent !== undefined) await platform.ready();
    // Only --keep-quota weighs the planned calls before the start.
    const byOrganization = args.keepQuotaPercent === undefined ? new Map() : await plannedByOrganization(planned, { ...planDeps(platform), routeFor: (p) => platform.client.routeFor(p), organizationOf });
    const refusal = startRefusal(platform.quota.readings(), byOrganization, args);
    if (refusal) {
      deps.output.err(refusal);
      return exitCode('quotaGuard');
    }
    const report = await runFiles(planned, fileRunDeps(prepared, platform, deps, { counter, organizationOf, grant }), args, settings.environment.name);
    return finish(describeRun(report, { planned, args, counter, readings: platform.quota.readings() }), args, deps);
  } finally {
    platform.dispose();
  }
}

/** The reports written, the summary said, the exit code. */
function finish(report: RunReport, args: Arguments, deps: CliDeps): number {
  deps.output.status('');
  const reason = worstReason(exitReasons(report));
  writeReports(args, report, reason, deps);
  for (const line of summaryLines(report, reason)) deps.output.out(line);
  return exitCode(reason);
}

/** --tenant as a matrix (several, or *) and --data's rows; --tag and --name. One --tenant is the active tenant instead. */
function runChoice(args: Arguments, deps: CliDeps): RunChoice {
  const tenants = splitTenants(args.tenant);
  const matrix = tenants.length > 1 || tenants.includes(EVERY_TENANT);
  let rows: DataRow[] | undefined;
  if (args.data !== undefined) {
    try {
      rows = readDataRows(args.data, deps.cwd);
    } catch (error) {
      throw new UsageError(`--data: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { ...(matrix ? { tenants } : {}), ...(rows ? { rows } : {}), filter: { tags: args.tags, name: args.name } };
}

function planDeps(platform: Platform): PlanDeps {
  return {
    sources: (file, cell) => platform.runner.sources(file.document.key, file.parsed, cell),
    listTenants: () => platform.tenants.list(),
    knownTenants: () => platform.tenants.known(),
  };
}

/** Whose quota a call of `module` for `tenant` counts against: the organization of the key it would carry (once per pair). */
function organizationLookup(platform: Platform): (module: string | undefined, tenant: string | undefined) => Promise<string | undefined> {
  const known = new Map<string, Promise<string | undefined>>();
  return (module, tenant) => {
    if (module === undefined) return Promise.resolve(undefined);
    const key = `${module}\u0000${tenant ?? ''}`;
    let found = known.get(key);
    if (!found) {
      found = (async () => {
        const record = tenant === undefined ? undefined : await platform.tenants.find(tenant).catch(() => undefined);
        return (await platform.licenceKeys.forTenant(module, record, platform.client.modules()))?.organization;
      })();
      known.set(key, found);
    }
    return found;
  };
}

interface RunParts {
  counter: StatisticsCounter;
  organizationOf: FileRunDeps['organizationOf'];
  grant: GrantChoice;
}

function fileRunDeps(prepared: Prepared, platform: Platform, deps: CliDeps, parts: RunParts): FileRunDeps {
  const { counter } = parts;
  return {
    runner: platform.runner,
    readings: () => platform.quota.readings(),
    routeFor: (p) => platform.client.routeFor(p),
    organizationOf: parts.organizationOf,
    progress: progressReporter(deps.output, prepared.args.verbosity, () => platform.quota.readings()),
    tenantHint: grantHasUser(parts.grant) ? undefined : l10n.t('The client credentials grant signs in no user, so no tenant is yours: use the password grant (TENANT_API_USERNAME and TENANT_API_PASSWORD) for requests that need a tenant.'),
    now: () => deps.clock.now(),
    onQueuePosition: (position) => counter.queuePosition(position),
    observe: (outcome) => counter.attempts((outcome.sent?.response ?? outcome.error?.response)?.attempts ?? 0),
  };
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
    // A proxy or a certificate stopped it: the network is at fault, as for any request.
    return exitCode(connectionProblemOf(error) ? 'requestFailed' : 'signIn');
  }
  const connection = connectionProblemOf(error);
  if (connection) {
    deps.output.err(connection.message);
    return exitCode('requestFailed');
  }
  if (error instanceof ImportFailed) {
    deps.output.err(error.message);
    return exitCode('usage');
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
    if (args.command === 'import') {
      await importCommand(args, deps);
      return exitCode('passed');
    }
    const prepared = await prepare(args, deps);
    if (args.command === 'login') return await login(prepared, deps);
    return await (args.dryRun ? dryRun(prepared, deps) : run(prepared, deps));
  } catch (error) {
    return failure(error, deps);
  }
}
