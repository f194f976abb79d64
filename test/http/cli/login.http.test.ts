// tenant-api login: the device code flow for a person at a terminal, the built runner as a child
// process; the person is played by the sign-in forms helper on the verification page.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startSandbox, type Sandbox } from '../../sandbox';
import { FormBrowser } from '../../helpers/signInWithForm';
import { buildRunner, sandboxWorkspace, startLogin } from './runnerProcess';

describe('tenant-api login (device code)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let folder: string;

  before(async () => {
    buildRunner();
    sandbox = await startSandbox({ deviceCodeIntervalSeconds: 1 });
    folder = sandboxWorkspace(sandbox, sandbox.clients.public.clientId);
  });
  after(async () => {
    await sandbox?.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('prints the address and the code, waits for the person, then says who signed in', async () => {
    const login = startLogin(folder);
    const { address, code } = await login.prompt;
    assert.equal(address, sandbox.endpoints.deviceVerification);
    const mario = sandbox.users.find((user) => user.username === 'mario.rossi')!;
    await new FormBrowser().approveDevice(address, { username: mario.username, password: mario.password }, code);
    const { code: exit, output: stdout } = await login.exited;
    assert.equal(exit, 0, stdout);
    assert.match(stdout, /Signed in as Mario Rossi at http:\/\/127\.0\.0\.1:\d+\. Nothing was stored/);
  });
});
