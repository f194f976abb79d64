// npm run bench:proxy [-- --calls 300]
//
// The cost per call of the runner's network (src/cli/network.ts: one undici dispatcher, Node's fetch)
// through a real forward proxy on loopback (squid, as the tests start it), against going directly: plain
// http (forwarded, `GET http://host/path`) and https (a CONNECT tunnel, TLS inside it, the server's
// certificate from a certificate authority made here). The server is a small JSON answer in this
// process, so the figures are transport only. Calls are sequential on kept-alive connections, after a
// warm-up, in blocks of each kind in turn. Reported per call: the wall time (median and 95th percentile), this process's CPU time (client
// and server; the difference between direct and proxied is the client's extra work) and squid's CPU time
// (from /proc). CPU figures are what to compare on a shared machine; the wall times only on a quiet one.
// Target: a proxied call's added CPU time in this process under 1 ms. Writes test/bench/results/proxy.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { cliNetwork } from '../../src/cli/network';
import { readNetworkOptions } from '../../src/cli/networkOptions';
import { startForwardProxy, type ForwardProxy } from '../helpers/forwardProxy';
import { TestAuthority } from '../sandbox/tls/certificates';
import { option } from './options';

const CALLS = Math.max(10, Math.floor(option('calls', 300)));
const WARM_UP = 30;
const ADDED_CPU_BUDGET_MS = 1;
const BODY = JSON.stringify({ pagina: 1, totalePagine: 1, righe: Array.from({ length: 10 }, (_, index) => ({ id: index, nome: `Ditta ${index}` })) });

/** utime + stime of a process in ms (Linux /proc; clock ticks of 10 ms). */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const ownCpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(String((server.address() as AddressInfo).port))));
}

interface Mode {
  name: string;
  url: string;
  network: ReturnType<typeof cliNetwork>;
  proxy?: ForwardProxy;
  times: number[];
  cpuMs: number;
  proxyCpuMs: number;
}

function mode(name: string, url: string, env: NodeJS.ProcessEnv, caFile: string | undefined, proxy: ForwardProxy | undefined): Mode {
  return { name, url, network: cliNetwork(readNetworkOptions({ caFile }, env, {}, process.cwd())), proxy, times: [], cpuMs: 0, proxyCpuMs: 0 };
}

async function call(entry: Mode): Promise<void> {
  const response = await entry.network.fetch(entry.url, { headers: { accept: 'application/json' } });
  if (response.status !== 200) throw new Error(`${entry.name}: ${response.status}`);
  await response.arrayBuffer();
}

/** Blocks of calls of each mode in turn, so that the machine's changing load falls on every mode alike. */
async function measure(modes: Mode[]): Promise<void> {
  for (const entry of modes) for (let i = 0; i < WARM_UP; i++) await call(entry);
  const blocks = 10;
  for (let block = 0; block < blocks; block++) {
    for (const entry of modes) {
      const squid = entry.proxy ? processCpuMs(entry.proxy.pid) : 0;
      for (let i = 0; i < CALLS / blocks; i++) {
        const cpu = ownCpuMs();
        const at = performance.now();
        await call(entry);
        entry.times.push(performance.now() - at);
        entry.cpuMs += ownCpuMs() - cpu;
      }
      if (entry.proxy) entry.proxyCpuMs += processCpuMs(entry.proxy.pid) - squid;
    }
  }
}

function row(entry: Mode) {
  const times = sorted(entry.times);
  return {
    name: entry.name,
    calls: times.length,
    medianMs: round(times[Math.floor(times.length / 2)]),
    p95Ms: round(times[Math.floor(times.length * 0.95)]),
    cpuPerCallMs: round(entry.cpuMs / times.length),
    proxyCpuPerCallMs: round(entry.proxyCpuMs / times.length),
  };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const round = (value: number) => Number(value.toFixed(3));

async function main(): Promise<void> {
  const authority = await TestAuthority.create();
  const pair = await authority.issue();
  const folder = join(__dirname, 'results');
  mkdirSync(folder, { recursive: true });
  const caFile = join(folder, 'proxy-bench-ca.pem');
  writeFileSync(caFile, authority.cert);
  const answer = (_request: http.IncomingMessage, response: http.ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
  const plain = http.createServer(answer);
  const secure = https.createServer({ cert: pair.cert, key: pair.key }, answer);
  const [plainPort, securePort] = [await listen(plain), await listen(secure)];
  const proxy = await startForwardProxy();
  try {
    const httpUrl = `http://127.0.0.1:${plainPort}/efat/api/v1/ditte`;
    const httpsUrl = `https://127.0.0.1:${securePort}/efat/api/v1/ditte`;
    const modes = [
      mode('http direct', httpUrl, {}, undefined, undefined),
      mode('http through the proxy (forwarded)', httpUrl, { HTTP_PROXY: proxy.url }, undefined, proxy),
      mode('https direct', httpsUrl, {}, caFile, undefined),
      mode('https through the proxy (CONNECT)', httpsUrl, { HTTPS_PROXY: proxy.url }, caFile, proxy),
    ];
    await measure(modes);
    await Promise.all(modes.map((entry) => entry.network.close()));
    const rows = modes.map(row);
    const added = { http: round(rows[1].cpuPerCallMs - rows[0].cpuPerCallMs), https: round(rows[3].cpuPerCallMs - rows[2].cpuPerCallMs) };
    for (const row of rows) {
      console.log(`proxy: ${row.name.padEnd(36)} median ${row.medianMs} ms, p95 ${row.p95Ms} ms, CPU ${row.cpuPerCallMs} ms here + ${row.proxyCpuPerCallMs} ms squid per call (${row.calls} calls)`);
    }
    const result = { rows, addedCpuPerCallMs: added, addedCpuBudgetMs: ADDED_CPU_BUDGET_MS, node: process.version, loadAverage: loadavg()[0], cores: cpus().length, at: new Date().toISOString() };
    console.log(`proxy: added CPU per proxied call in this process: http ${added.http} ms, https ${added.https} ms (target < ${ADDED_CPU_BUDGET_MS} ms); load average ${result.loadAverage.toFixed(1)} on ${result.cores} cores`);
    writeFileSync(join(folder, 'proxy.json'), JSON.stringify(result, null, 2) + '\n');
    if (added.http >= ADDED_CPU_BUDGET_MS || added.https >= ADDED_CPU_BUDGET_MS) {
      console.error('missed a target: the proxy adds too much CPU per call');
      process.exitCode = 1;
    }
  } finally {
    await proxy.close();
    plain.close();
    secure.close();
  }
}

if (require.main === module) void main();
