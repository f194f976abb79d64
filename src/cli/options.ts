/**
 * The command line: commands and options as a table, read into one plain object. An unknown option
 * or a missing value is a usage error (exit 2). No option takes a secret: values on the command line
 * are visible to every user of the machine (`ps`), so secrets come from the environment or stdin.
 */
import { REQUEST_TIMEOUT_SECONDS } from '../api/requestTimeout';
import * as l10n from '../common/l10n';
import { IMPORT_FORMATS, type ImportFormat } from '../engine/importers';

export type Command = 'run' | 'login' | 'import' | 'help' | 'version';
export type GrantChoice = 'client_credentials' | 'password' | 'device';
export type Verbosity = 'quiet' | 'normal' | 'verbose';

export const REPORTER_KINDS = ['junit', 'json', 'html', 'markdown'] as const;

export interface Reporter {
  kind: (typeof REPORTER_KINDS)[number];
  path: string;
}

export interface Arguments {
  command: Command;
  /** Files and globs, as given. */
  files: string[];
  env?: string;
  /** As given: one tenant (the tenant of requests that name none), a list `A,B`, or `*` (each request once per tenant). */
  tenant?: string;
  /** A data file (CSV with a header row, or a JSON array of objects): each file runs once per row. */
  data?: string;
  /** Only requests with one of these `# @tag`s (--tag, repeatable, or comma-separated). */
  tags: string[];
  /** Only requests whose name (or "line N") matches this regular expression (--name), in any case. */
  name?: string;
  reporters: Reporter[];
  bail: boolean;
  timeoutSeconds?: number;
  maxCalls?: number;
  keepQuotaPercent?: number;
  dryRun: boolean;
  verbosity: Verbosity;
  grant?: GrantChoice;
  secretStdin: boolean;
  /** The folder whose `.vscode/settings.json` is read (default: the nearest one up from the current folder). */
  workspace?: string;
  /** The shared ledger in Redis (redis:// or rediss://, no password: TENANT_API_LEDGER_PASSWORD holds it). */
  ledger?: string;
  ledgerFallback: LedgerFallbackChoice;
  /** PEM files: a certificate authority to trust, and a client certificate with its key (mutual TLS). */
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
  /** import: the input's format, when not detected. */
  format?: ImportFormat;
  /** import: the folder the request files are written to (default: the current folder). */
  out?: string;
  /** import: replace files that exist. */
  force: boolean;
}

export type LedgerFallbackChoice = 'fail' | 'local';
const LEDGER_FALLBACKS: readonly LedgerFallbackChoice[] = ['fail', 'local'];

export class UsageError extends Error {}

type Apply = (into: Arguments, value: string) => void;

interface OptionSpec {
  name: string;
  /** The value's placeholder in the help; none for a flag. */
  value?: string;
  commands: readonly Command[];
  help: () => string;
  apply: Apply;
}

const RUN: readonly Command[] = ['run'];
const BOTH: readonly Command[] = ['run', 'login'];
const IMPORT: readonly Command[] = ['import'];
const GRANTS: readonly GrantChoice[] = ['client_credentials', 'password', 'device'];

/** A number above 0, or from `least` on when it is given, and at most `max`. */
function positive(name: string, value: string, { integer = false, max = Infinity, least }: { integer?: boolean; max?: number; least?: number } = {}): number {
  const n = Number(value);
  const ok = value.trim() !== '' && Number.isFinite(n) && (least === undefined ? n > 0 : n >= least) && n <= max && (!integer || Number.isInteger(n));
  if (!ok) throw new UsageError(`${integer ? l10n.t('{0} needs a whole number, got "{1}".', name, value) : l10n.t('{0} needs a number, got "{1}".', name, value)} ${rangeOf(least, max)}`);
  return n;
}

function rangeOf(least: number | undefined, max: number): string {
  if (Number.isFinite(max)) return least === undefined ? l10n.t('It is above 0 and at most {0}.', max) : l10n.t('It goes from {0} to {1}.', least, max);
  return least === undefined ? l10n.t('It is above 0.') : l10n.t('It is {0} or more.', least);
}

export const OPTIONS: readonly OptionSpec[] = [
  { name: '--env', value: 'NAME', commands: BOTH, help: () => l10n.t('the environment of tenantApi.environments (default: the top-level settings, else the first environment)'), apply: (a, v) => (a.env = v) },
  { name: '--tenant', value: 'CODE[,CODE...]|*', commands: RUN, help: () => l10n.t("the tenant (code, description or id) of requests that name none; several, or * for every tenant of the signed-in user, run each such request once per tenant"), apply: (a, v) => (a.tenant = v) },
  { name: '--data', value: 'FILE', commands: RUN, help: () => l10n.t('run each file once per row of a CSV file (header row) or JSON array of objects; the columns are variables'), apply: (a, v) => (a.data = v) },
  { name: '--tag', value: 'TAG', commands: RUN, help: () => l10n.t('run only requests with this # @tag (repeatable, or comma-separated: any of them)'), apply: (a, v) => a.tags.push(...v.split(',').map((tag) => tag.trim()).filter(Boolean)) },
  { name: '--name', value: 'PATTERN', commands: RUN, help: () => l10n.t('run only requests whose name (or "line N") matches this regular expression, in any case'), apply: (a, v) => (a.name = patternOf(v)) },
  { name: '--reporter', value: 'junit|json|html|markdown=PATH', commands: RUN, help: () => l10n.t('write a JUnit XML, JSON, HTML or Markdown report (repeatable; Markdown is also added to $GITHUB_STEP_SUMMARY when set)'), apply: (a, v) => a.reporters.push(reporterOf(v)) },
  { name: '--bail', commands: RUN, help: () => l10n.t('stop at the first request that fails'), apply: (a) => (a.bail = true) },
  { name: '--timeout', value: 'SECONDS', commands: RUN, help: () => l10n.t('time limit of each request (default: tenantApi.requestTimeoutSeconds)'), apply: (a, v) => (a.timeoutSeconds = positive('--timeout', v, { least: REQUEST_TIMEOUT_SECONDS.min, max: REQUEST_TIMEOUT_SECONDS.max })) },
  { name: '--max-calls', value: 'N', commands: RUN, help: () => l10n.t('stop before making more than N calls'), apply: (a, v) => (a.maxCalls = positive('--max-calls', v, { integer: true, least: 0 })) },
  { name: '--keep-quota', value: 'PERCENT', commands: RUN, help: () => l10n.t("refuse to start, or stop, before the run would leave less than this share of the week's quota"), apply: (a, v) => (a.keepQuotaPercent = positive('--keep-quota', v, { max: 100, least: 0 })) },
  { name: '--dry-run', commands: RUN, help: () => l10n.t('parse, resolve variables and routes, print what would be sent and the cost; send nothing'), apply: (a) => (a.dryRun = true) },
  { name: '--quiet', commands: BOTH, help: () => l10n.t('print only failures and the summary'), apply: (a) => (a.verbosity = 'quiet') },
  { name: '--verbose', commands: BOTH, help: () => l10n.t("print every assertion and the client's log (secrets masked)"), apply: (a) => (a.verbosity = 'verbose') },
  { name: '--grant', value: GRANTS.join('|'), commands: BOTH, help: () => l10n.t('how to sign in (default: password when TENANT_API_USERNAME is set, else client_credentials)'), apply: (a, v) => (a.grant = grantOf(v)) },
  { name: '--secret-stdin', commands: BOTH, help: () => l10n.t('read NAME=VALUE lines of the TENANT_API_* secrets from standard input'), apply: (a) => (a.secretStdin = true) },
  { name: '--ledger', value: 'redis://HOST:PORT/DB', commands: RUN, help: () => l10n.t('share the application\'s rate limits with runners on other machines through this Redis (default: TENANT_API_LEDGER, else this machine\'s ledger); its password from TENANT_API_LEDGER_PASSWORD'), apply: (a, v) => (a.ledger = v) },
  { name: '--ledger-fallback', value: LEDGER_FALLBACKS.join('|'), commands: RUN, help: () => l10n.t('when Redis cannot be reached at start: fail (exit 6, the default) or go on with this machine\'s ledger'), apply: (a, v) => (a.ledgerFallback = ledgerFallbackOf(v)) },
  { name: '--ca-file', value: 'PEM', commands: BOTH, help: () => l10n.t('also trust the certificate authorities in this PEM file (default: TENANT_API_CA_FILE; NODE_EXTRA_CA_CERTS works too)'), apply: (a, v) => (a.caFile = v) },
  { name: '--client-cert', value: 'PEM', commands: BOTH, help: () => l10n.t('a client certificate for servers that ask for one (mutual TLS; default: TENANT_API_CLIENT_CERT_FILE)'), apply: (a, v) => (a.clientCert = v) },
  { name: '--client-key', value: 'PEM', commands: BOTH, help: () => l10n.t('the client certificate\'s key (default: TENANT_API_CLIENT_KEY_FILE); its passphrase from TENANT_API_CLIENT_KEY_PASSPHRASE'), apply: (a, v) => (a.clientKey = v) },
  { name: '--workspace', value: 'FOLDER', commands: BOTH, help: () => l10n.t('the folder whose .vscode/settings.json is read'), apply: (a, v) => (a.workspace = v) },
  { name: '--format', value: IMPORT_FORMATS.join('|'), commands: IMPORT, help: () => l10n.t('the input\'s format (default: detected)'), apply: (a, v) => (a.format = formatOf(v)) },
  { name: '--out', value: 'FOLDER', commands: IMPORT, help: () => l10n.t('where the request files are written (default: the current folder)'), apply: (a, v) => (a.out = v) },
  { name: '--force', commands: IMPORT, help: () => l10n.t('replace request files that exist'), apply: (a) => (a.force = true) },
];

function formatOf(value: string): ImportFormat {
  if (!(IMPORT_FORMATS as readonly string[]).includes(value)) throw new UsageError(l10n.t('--format takes {0}, got "{1}".', IMPORT_FORMATS.join(', '), value));
  return value as ImportFormat;
}

function reporterOf(value: string): Reporter {
  const match = /^(\w+)=(.+)$/.exec(value);
  if (!match || !(REPORTER_KINDS as readonly string[]).includes(match[1])) throw new UsageError(l10n.t('--reporter takes junit=PATH, json=PATH, html=PATH or markdown=PATH, got "{0}".', value));
  return { kind: match[1] as Reporter['kind'], path: match[2] };
}

function patternOf(value: string): string {
  try {
    new RegExp(value, 'i');
  } catch (error) {
    throw new UsageError(l10n.t('--name takes a regular expression: {0}', error instanceof Error ? error.message : String(error)));
  }
  return value;
}

function ledgerFallbackOf(value: string): LedgerFallbackChoice {
  if (!(LEDGER_FALLBACKS as readonly string[]).includes(value)) throw new UsageError(l10n.t('--ledger-fallback takes {0}, got "{1}".', LEDGER_FALLBACKS.join(', '), value));
  return value as LedgerFallbackChoice;
}

function grantOf(value: string): GrantChoice {
  if (!(GRANTS as readonly string[]).includes(value)) throw new UsageError(l10n.t('--grant takes {0}, got "{1}".', GRANTS.join(', '), value));
  return value as GrantChoice;
}

function commandOf(word: string | undefined): Command {
  if (word === undefined || word === 'help' || word === '--help' || word === '-h') return 'help';
  if (word === '--version' || word === '-v' || word === 'version') return 'version';
  if (word === 'run' || word === 'login' || word === 'import') return word;
  throw new UsageError(l10n.t('Unknown command "{0}": use run, login, import, --help or --version.', word.startsWith('-') ? word.split('=')[0] : word));
}

export function parseArguments(argv: readonly string[]): Arguments {
  const command = commandOf(argv[0]);
  const parsed: Arguments = { command, files: [], tags: [], reporters: [], bail: false, dryRun: false, verbosity: 'normal', secretStdin: false, ledgerFallback: 'fail', force: false };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return { ...parsed, command: 'help' };
    if (!arg.startsWith('--')) {
      parsed.files.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    // Only the option's name is ever repeated back: a value typed by mistake may be a secret.
    const name = equals < 0 ? arg : arg.slice(0, equals);
    const spec = OPTIONS.find((option) => option.name === name);
    if (!spec || !spec.commands.includes(command)) throw new UsageError(l10n.t('Unknown option {0} for "{1}" (see tenant-api --help).', name, command));
    if (!spec.value) {
      if (equals >= 0) throw new UsageError(l10n.t('{0} takes no value.', name));
      spec.apply(parsed, '');
      continue;
    }
    const value = equals >= 0 ? arg.slice(equals + 1) : argv[++i];
    if (value === undefined || value === '') throw new UsageError(l10n.t('{0} needs a value ({1}).', name, spec.value));
    spec.apply(parsed, value);
  }
  if (command === 'run' && parsed.files.length === 0) throw new UsageError(l10n.t('tenant-api run needs at least one request file or glob.'));
  if (command === 'login' && parsed.files.length > 0) throw new UsageError(l10n.t('tenant-api login takes no files.'));
  if (command === 'import' && parsed.files.length !== 1) throw new UsageError(l10n.t('tenant-api import takes one input: a file, or - for standard input.'));
  return parsed;
}

/** The help text, made from the table. */
export function usageText(): string {
  const left = (option: OptionSpec) => (option.value ? `${option.name} ${option.value}` : option.name);
  const width = Math.max(...OPTIONS.map((option) => left(option).length));
  const rows = OPTIONS.map((option) => `  ${left(option).padEnd(width)}  ${option.help()}${option.commands.length > 1 ? '' : ` (${l10n.t('{0} only', option.commands[0])})`}`);
  return [
    l10n.t('Usage: tenant-api run <files or globs> [options]'),
    l10n.t('       tenant-api login [options]      sign in with the device code flow'),
    l10n.t('       tenant-api import <file or -> [--format F] [--out FOLDER]   request files from an OpenAPI description, a Postman collection or cURL commands'),
    l10n.t('       tenant-api --version | --help'),
    '',
    l10n.t('Options:'),
    ...rows,
    '',
    l10n.t('Secrets come from the environment, never from options: TENANT_API_CLIENT_ID, TENANT_API_CLIENT_SECRET, TENANT_API_USERNAME, TENANT_API_PASSWORD, TENANT_API_KEY_<MODULE> (e.g. TENANT_API_KEY_CORE), or from standard input with --secret-stdin.'),
    l10n.t('Every call goes through the proxy of HTTPS_PROXY or HTTP_PROXY (http://user:password@host:port) unless NO_PROXY names its host; a client key\'s passphrase comes from TENANT_API_CLIENT_KEY_PASSPHRASE.'),
    l10n.t('Keys of several organizations: TENANT_API_KEY_<MODULE>_<ORG> (e.g. TENANT_API_KEY_EFAT_BIANCHI) with TENANT_API_TENANTS_<ORG>=CODE,CODE naming its tenants; TENANT_API_KEY_<MODULE> serves the tenants no organization names.'),
  ].join('\n');
}
