// npm run bench: the throttling bench (index.ts), the windows bench (windows.ts), the Redis ledger
// bench (redis.ts), the large responses bench (responses.ts), the runners bench (runners.ts), the matrix bench (matrix.ts), the
// catalogue bench (catalogue.ts), the proxy bench (proxy.ts), then the table view's first paint (table.ts), each in its own process as
// `npm run bench:throttle`, `bench:windows`, `bench:redis`, `bench:responses`, `bench:runners`, `bench:matrix`, `bench:catalogue`,
// `bench:proxy` and `bench:table` run them. Exits 1 when any missed a target, after all ran. Options go to `npm run bench:throttle -- …` directly.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const tsx = join(__dirname, '..', '..', 'node_modules', '.bin', process.platform === 'win32' ? 'tsx.cmd' : 'tsx');
let failed = false;
for (const bench of ['index.ts', 'windows.ts', 'redis.ts', 'responses.ts', 'runners.ts', 'matrix.ts', 'catalogue.ts', 'proxy.ts', 'table.ts']) {
  const run = spawnSync(tsx, [join(__dirname, bench)], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
