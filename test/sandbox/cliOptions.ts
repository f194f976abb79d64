// Command-line options of `npm run sandbox` and `npm start` (knobs of startSandbox).
import type { SandboxOptions } from './types';

export interface CliOptions {
  json: boolean;
  help: boolean;
  sandbox: SandboxOptions;
}

export const CLI_HELP = `Options:
  --json                      print one JSON object on one line (URLs, clients, users, keys) and nothing else
  --time-scale <n>            1 = real time; 0.1 makes every limit window 10 times shorter
  --weekly-limit <n>          weekly request limit of every organization (default: from its licence)
  --token-ttl <seconds>       access token lifetime (default 300)
  --latency <ms>              added to every resource response
  --jitter <ms>               random 0..ms added on top
  --device-interval <s>       polling interval announced by the device flow (default 5)
  --redirect-uri <uri>        extra exact redirect URI of the public client (repeatable)
  --dev-redirect-prefix <p>   accept any redirect URI starting with p (development only, repeatable)
  --client-id <id>            public client id (default tenant-api-workbench)
  --auth-port <n> --api-port <n> --cluster-ports <n,n>   ports (0 = free port)
  --tls                       serve HTTPS with a certificate authority made at start (--json names its caFile)
  --client-certificates       with --tls: every server asks for a client certificate (mutual TLS); one is made
  --host-name <name>          the host name in the sandbox's URLs (default 127.0.0.1; it still binds 127.0.0.1)
  --help`;

export function parseCliOptions(argv: string[], defaults: SandboxOptions): CliOptions {
  const sandbox: SandboxOptions = { ...defaults };
  let json = false;
  let help = false;
  const number = (flag: string, value: string | undefined, min = 0): number => {
    const n = Number(value);
    if (value === undefined || value === '' || !Number.isFinite(n) || n < min) throw new Error(`${flag} needs a number${min > 0 ? ` of at least ${min}` : ''}, got ${JSON.stringify(value)}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--json': json = true; break;
      case '--help': case '-h': help = true; break;
      case '--time-scale': sandbox.timeScale = number(flag, value(), 1e-9); break;
      case '--weekly-limit': sandbox.weeklyLimit = number(flag, value()); break;
      case '--token-ttl': sandbox.accessTokenTtlSeconds = number(flag, value(), 1); break;
      case '--latency': sandbox.latencyMs = number(flag, value()); break;
      case '--jitter': sandbox.jitterMs = number(flag, value()); break;
      case '--device-interval': sandbox.deviceCodeIntervalSeconds = number(flag, value()); break;
      case '--redirect-uri': sandbox.extraRedirectUris = [...(sandbox.extraRedirectUris ?? []), String(value())]; break;
      case '--dev-redirect-prefix': sandbox.devRedirectPrefixes = [...(sandbox.devRedirectPrefixes ?? []), String(value())]; break;
      case '--client-id': sandbox.clientId = String(value()); break;
      case '--auth-port': sandbox.authPort = number(flag, value()); break;
      case '--api-port': sandbox.apiPort = number(flag, value()); break;
      case '--tls': sandbox.tls = typeof sandbox.tls === 'object' ? sandbox.tls : true; break;
      case '--client-certificates': sandbox.tls = { clientCertificates: true }; break;
      case '--host-name': sandbox.hostName = String(value()); break;
      case '--cluster-ports': sandbox.clusterPorts = String(value()).split(',').map((p) => number(flag, p)); break;
      default: throw new Error(`Unknown option ${arg}\n${CLI_HELP}`);
    }
  }
  return { json, help, sandbox };
}
