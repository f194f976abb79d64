// Mocha's global setup (package.json's mocha.require): runs once in the main process before any test
// file, and before --parallel starts its workers, which inherit the environment it sets. Each runner
// test builds the bundles when run alone; built here, no worker rewrites dist/cli.js while another runs it.
import { BUILT_FOR_THIS_RUN, buildRunner } from '../http/cli/runnerProcess';

export function mochaGlobalSetup(): void {
  buildRunner();
  process.env[BUILT_FOR_THIS_RUN] = '1';
}
