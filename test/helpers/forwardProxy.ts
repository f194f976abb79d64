// A real forward proxy for tests: Debian's squid (installed by .ci/run), started on a free port of
// 127.0.0.1 with a configuration of its own in a temporary folder, its access log read back.
// - `credentials`: the proxy wants a user name and password (Basic, checked by squid's basic_ncsa_auth),
//   and answers 407 without them.
// - `relay`: the proxy sends what is addressed to `address:port` (another loopback address, where nothing
//   listens) to 127.0.0.1:port, as to an origin server (squid's cache_peer ... originserver): a sandbox
//   started with that host name is reached through the proxy only, a call around it finds nothing.
// Squid writes a log line when an exchange ends: a forwarded request (`GET http://host/path`) when its
// answer is sent, a CONNECT tunnel (https, or VS Code's proxy agent) when the tunnel closes.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { onFreePort, PortTaken } from './freePort';

const SQUID_PLACES = ['/usr/sbin/squid', '/usr/bin/squid'];
const BASIC_AUTH_HELPER = '/usr/lib/squid/basic_ncsa_auth';

export interface ProxyLogLine {
  /** e.g. TCP_MISS/200, TCP_TUNNEL/200, TCP_DENIED/407 */
  result: string;
  status: number;
  method: string;
  /** `http://host:port/path` of a forwarded request (query dropped), `host:port` of a CONNECT. */
  url: string;
  /** The proxy user, `-` without one. */
  user: string;
}

export interface ForwardProxyOptions {
  /** Default: a free one (another, when it was taken meanwhile). */
  port?: number;
  credentials?: { user: string; password: string };
  relay?: { address: string; ports: number[] };
}

export interface ForwardProxy {
  /** http://127.0.0.1:<port>, without credentials. */
  url: string;
  port: number;
  /** squid's process id (the bench reads its CPU time). */
  pid: number;
  /** The proxy's URL with a user name and password in it (percent-encoded). */
  urlWith(user: string, password: string): string;
  /** Every access-log line so far. */
  log(): ProxyLogLine[];
  /** Waits until `until` holds for the log lines (squid logs a tunnel when it closes). */
  waitForLog(until: (lines: ProxyLogLine[]) => boolean, timeoutMs?: number): Promise<ProxyLogLine[]>;
  close(): Promise<void>;
}

export function squidPath(): string {
  const found = SQUID_PLACES.find((place) => fs.existsSync(place));
  if (!found) throw new Error('squid is not installed: apt-get install squid (.ci/run installs it)');
  return found;
}

function configuration(folder: string, port: number, options: ForwardProxyOptions): string {
  const auth = options.credentials
    ? [
        `auth_param basic program ${BASIC_AUTH_HELPER} ${path.join(folder, 'passwd')}`,
        'auth_param basic realm tenant-api test proxy',
        'auth_param basic children 2',
        'acl authenticated proxy_auth REQUIRED',
        'http_access allow authenticated',
        'http_access deny all',
      ]
    : ['http_access allow all'];
  const relay = options.relay
    ? [
        `acl relayed dst ${options.relay.address}`,
        ...options.relay.ports.flatMap((port) => [
          `acl port${port} port ${port}`,
          `cache_peer 127.0.0.1 parent ${port} 0 originserver no-query no-digest name=relay${port}`,
          `cache_peer_access relay${port} allow relayed port${port}`,
          `cache_peer_access relay${port} deny all`,
        ]),
        'never_direct allow relayed',
      ]
    : [];
  return [
    `http_port 127.0.0.1:${port}`,
    ...relay,
    ...auth,
    'cache deny all',
    'cache_mem 4 MB',
    'pid_filename none',
    'logformat tenantapi %Ss/%03>Hs %rm %ru %un',
    `access_log stdio:${path.join(folder, 'access.log')} tenantapi`,
    `cache_log ${path.join(folder, 'cache.log')}`,
    'cache_store_log none',
    'logfile_rotate 0',
    // No name leaves the machine: names other than localhost are not found.
    `hosts_file ${path.join(folder, 'hosts')}`,
    'dns_nameservers 127.0.0.1',
    'udp_incoming_address 127.0.0.1',
    'udp_outgoing_address 127.0.0.1',
    'icp_port 0',
    'htcp_port 0',
    'pinger_enable off',
    `coredump_dir ${folder}`,
    'shutdown_lifetime 0 seconds',
    'visible_hostname tenant-api-test-proxy',
    '',
  ].join('\n');
}

function parseLine(line: string): ProxyLogLine | undefined {
  const [result, method, url, user] = line.trim().split(/\s+/);
  // A connection that sent nothing (the start-up probe) is no exchange.
  if (!result || !url || url.startsWith('error:')) return undefined;
  return { result, status: Number(result.split('/')[1]), method, url, user: user ?? '-' };
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** squid's line when another process holds its port. */
const PORT_TAKEN = /Cannot bind socket .*Address already in use/;

/** Waits for squid's own word that it listens on `port` (another process may answer there), or that it could not take it. */
async function waitUntilListening(child: ChildProcess, port: number, cacheLog: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  const read = () => (fs.existsSync(cacheLog) ? fs.readFileSync(cacheLog, 'utf8') : '');
  while (Date.now() < deadline) {
    const log = read();
    if (PORT_TAKEN.test(log)) break;
    if (child.exitCode !== null) break;
    if (log.includes(`Accepting HTTP Socket connections at conn`) && log.includes(`local=127.0.0.1:${port} `) && (await portOpen(port))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  const log = read();
  const message = `squid did not start on 127.0.0.1:${port}:\n${log.slice(-2000) || '(no cache.log)'}`;
  throw PORT_TAKEN.test(log) ? new PortTaken(message) : new Error(message);
}

export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const squid = squidPath();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-proxy-'));
  // Run as root, squid drops to its own user, which must write the logs here.
  fs.chmodSync(folder, 0o777);
  fs.writeFileSync(path.join(folder, 'hosts'), '127.0.0.1 localhost\n');
  if (options.credentials) {
    // basic_ncsa_auth takes a password's MD5 digest in hex.
    const digest = createHash('md5').update(options.credentials.password).digest('hex');
    fs.writeFileSync(path.join(folder, 'passwd'), `${options.credentials.user}:${digest}\n`, { mode: 0o644 });
  }
  let exited: Promise<void> = Promise.resolve();
  const started = async (port: number) => {
    fs.rmSync(path.join(folder, 'cache.log'), { force: true });
    fs.writeFileSync(path.join(folder, 'squid.conf'), configuration(folder, port, options));
    const child = spawn(squid, ['-N', '-f', path.join(folder, 'squid.conf')], { stdio: 'ignore' });
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await waitUntilListening(child, port, path.join(folder, 'cache.log'));
    return { child, port };
  };
  let child: ChildProcess;
  let port: number;
  try {
    ({ child, port } = await (options.port === undefined ? onFreePort(started) : started(options.port)));
  } catch (error) {
    await exited;
    fs.rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const accessLog = path.join(folder, 'access.log');
  const log = () => (fs.existsSync(accessLog) ? fs.readFileSync(accessLog, 'utf8') : '').split('\n').map(parseLine).filter((line): line is ProxyLogLine => line !== undefined);
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    pid: child.pid!,
    urlWith: (user, password) => `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    log,
    async waitForLog(until, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const lines = log();
        if (until(lines)) return lines;
        if (Date.now() > deadline) throw new Error(`the proxy's log did not show what was expected within ${timeoutMs} ms:\n${lines.map((line) => `${line.result} ${line.method} ${line.url} ${line.user}`).join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const killed = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killed);
      }
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
