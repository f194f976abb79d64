// Runs the sandbox in its own process for the benchmark, so that the client's work and the server's
// work do not share one event loop (which would add jitter the benchmark does not mean to measure).
// Parent -> child: { id, cmd: 'reset' | 'token' | 'stats' | 'calls' | 'close' }; child -> parent: { id, result }.
import { startSandbox, type Sandbox } from '../sandbox';

interface Command {
  id: number;
  cmd: 'reset' | 'token' | 'stats' | 'calls' | 'close';
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}');
  const sandbox: Sandbox = await startSandbox(options);
  const send = (message: unknown) => process.send?.(message);
  process.on('message', async (message: Command) => {
    switch (message.cmd) {
      case 'reset':
        sandbox.resetLimits();
        sandbox.requests.length = 0;
        send({ id: message.id, result: true });
        break;
      case 'token':
        send({ id: message.id, result: sandbox.signAccessToken({}, 'mario.rossi') });
        break;
      case 'stats': {
        const statuses: Record<string, number> = {};
        for (const request of sandbox.requests) statuses[request.status] = (statuses[request.status] ?? 0) + 1;
        send({ id: message.id, result: { requests: sandbox.requests.length, statuses } });
        break;
      }
      case 'calls':
        // Arrival time (epoch ms), query and status of each call, for the windows benchmark.
        send({ id: message.id, result: sandbox.requests.map((r) => ({ at: r.at, call: new URL(r.url).searchParams.get('call'), status: r.status })) });
        break;
      case 'close':
        await sandbox.close();
        send({ id: message.id, result: true });
        process.exit(0);
    }
  });
  send({
    ready: {
      baseUrl: sandbox.baseUrl,
      authUrl: sandbox.authUrl,
      clients: sandbox.clients,
      users: sandbox.users.map(({ username, password }) => ({ username, password })),
      licenceKeys: sandbox.licenceKeys,
      options: sandbox.options,
    },
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
