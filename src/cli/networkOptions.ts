/**
 * The runner's network as the user sets it: the proxy variables (HTTPS_PROXY, HTTP_PROXY, NO_PROXY),
 * a company's certificate authority (NODE_EXTRA_CA_CERTS, read by Node itself, or --ca-file /
 * TENANT_API_CA_FILE) and a client certificate for mutual TLS (--client-cert and --client-key, or
 * TENANT_API_CLIENT_CERT_FILE and TENANT_API_CLIENT_KEY_FILE; the key's passphrase only from
 * TENANT_API_CLIENT_KEY_PASSPHRASE). Every file is read and checked here, before anything is sent:
 * a problem is a usage error that names the option or variable, never a value that may be secret.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { ProxySettingError, proxySettingsFromEnvironment, type ProxySettings } from '../api/proxyRules';
import * as l10n from '../common/l10n';
import { registerSecret } from '../common/redact';
import { UsageError } from './options';

export const NETWORK_VARIABLES = {
  caFile: 'TENANT_API_CA_FILE',
  clientCert: 'TENANT_API_CLIENT_CERT_FILE',
  clientKey: 'TENANT_API_CLIENT_KEY_FILE',
  passphrase: 'TENANT_API_CLIENT_KEY_PASSPHRASE',
} as const;

/** The TLS options of every connection to a server (never to the proxy: the client certificate is the server's business). */
export interface ServerTls {
  /** Undefined: Node's certificate authorities (with NODE_EXTRA_CA_CERTS). */
  ca?: string[];
  cert?: string;
  key?: string;
  passphrase?: string;
  /** Set on every connection: NODE_TLS_REJECT_UNAUTHORIZED=0 turns nothing off here. */
  rejectUnauthorized: true;
}

export interface NetworkOptions {
  proxies: ProxySettings;
  tls: ServerTls;
  /** Lines for --verbose and warnings: what the run uses, never a password. */
  notes: string[];
}

/** The values of the options, as given (file paths). */
export interface NetworkArguments {
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
}

interface Source {
  /** The option or variable the path came from, for messages. */
  name: string;
  file: string;
}

function chosen(option: string | undefined, optionName: string, env: NodeJS.ProcessEnv, variable: string, cwd: string): Source | undefined {
  const value = option ?? env[variable]?.trim();
  if (!value) return undefined;
  return { name: option ? optionName : variable, file: path.resolve(cwd, value) };
}

function readFile(source: Source): string {
  try {
    return fs.readFileSync(source.file, 'utf8');
  } catch (error) {
    throw new UsageError(l10n.t('{0} names {1}, which cannot be read ({2}).', source.name, source.file, (error as NodeJS.ErrnoException).code ?? String(error)));
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function certificates(source: Source): string[] {
  const found = readFile(source).match(PEM_CERTIFICATE) ?? [];
  if (found.length === 0) throw new UsageError(l10n.t('{0} names {1}, which holds no PEM certificate (-----BEGIN CERTIFICATE-----).', source.name, source.file));
  return found;
}

/** The trusted authorities when --ca-file is given: Node's own, NODE_EXTRA_CA_CERTS's, and the file's (a `ca` option replaces Node's list). */
function authorities(source: Source | undefined, env: NodeJS.ProcessEnv): string[] | undefined {
  if (!source) return undefined;
  const extra = env.NODE_EXTRA_CA_CERTS?.trim();
  const fromNode = extra && fs.existsSync(extra) ? (fs.readFileSync(extra, 'utf8').match(PEM_CERTIFICATE) ?? []) : [];
  return [...tls.rootCertificates, ...fromNode, ...certificates(source)];
}

function clientCertificate(cert: Source | undefined, key: Source | undefined, passphrase: string | undefined): Pick<ServerTls, 'cert' | 'key' | 'passphrase'> {
  if (!cert && !key) return {};
  if (!cert || !key) {
    throw new UsageError(l10n.t('A client certificate needs its key: set both --client-cert and --client-key (or {0} and {1}).', NETWORK_VARIABLES.clientCert, NETWORK_VARIABLES.clientKey));
  }
  const certText = certificates(cert).join('\n');
  const keyText = readFile(key);
  let privateKey;
  try {
    privateKey = createPrivateKey({ key: keyText, ...(passphrase ? { passphrase } : {}) });
  } catch {
    const encrypted = /ENCRYPTED/.test(keyText);
    throw new UsageError(encrypted
      ? l10n.t('The client key {0} is encrypted: its passphrase in {1} is missing or wrong.', key.file, NETWORK_VARIABLES.passphrase)
      : l10n.t('{0} names {1}, which holds no PEM private key.', key.name, key.file));
  }
  if (!new X509Certificate(certText).checkPrivateKey(privateKey)) {
    throw new UsageError(l10n.t('The client key {0} does not belong to the certificate {1}.', key.file, cert.file));
  }
  return { cert: certText, key: keyText, ...(passphrase ? { passphrase } : {}) };
}

function proxies(env: NodeJS.ProcessEnv): ProxySettings {
  try {
    return proxySettingsFromEnvironment(env);
  } catch (error) {
    if (!(error instanceof ProxySettingError)) throw error;
    throw new UsageError(error.reason === 'scheme'
      ? l10n.t('{0} must name an http:// or https:// proxy.', error.variable)
      : l10n.t('{0} is not a proxy address (http://host:port, with user:password@ before the host when the proxy wants them).', error.variable));
  }
}

function registerProxyPasswords(settings: ProxySettings): void {
  for (const proxy of [settings.httpProxy, settings.httpsProxy]) {
    if (!proxy?.password) continue;
    registerSecret(proxy.password);
    registerSecret(decodeURIComponent(proxy.password));
  }
}

/** Reads the network settings of a run, or throws a UsageError before anything is sent. */
export function readNetworkOptions(args: NetworkArguments, env: NodeJS.ProcessEnv, secrets: { passphrase?: string }, cwd: string): NetworkOptions {
  const proxySettings = proxies(env);
  registerProxyPasswords(proxySettings);
  const passphrase = secrets.passphrase;
  registerSecret(passphrase);
  const ca = authorities(chosen(args.caFile, '--ca-file', env, NETWORK_VARIABLES.caFile, cwd), env);
  const client = clientCertificate(chosen(args.clientCert, '--client-cert', env, NETWORK_VARIABLES.clientCert, cwd), chosen(args.clientKey, '--client-key', env, NETWORK_VARIABLES.clientKey, cwd), passphrase);
  const notes: string[] = [];
  if (env.NODE_TLS_REJECT_UNAUTHORIZED === '0') notes.push(l10n.t('NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored: tenant-api never turns certificate checks off.'));
  return { proxies: proxySettings, tls: { ...(ca ? { ca } : {}), ...client, rejectUnauthorized: true }, notes };
}
