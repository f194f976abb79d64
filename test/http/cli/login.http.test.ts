// tenant-api login: the device code flow for a person at a terminal, the built runner as a child
// process; the person is played by the sign-in forms helper on the verification page.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { startSandbox, type Sandbox } from '../../sandbox';
import { FormBrowser } from '../../helpers/signInWithForm';
import { buildRunner, CLI, sandboxWorkspace } from './runnerProcess';

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
    const child = spawn(process.execPath, [CLI, 'login', '--env', 'Sandbox'], { cwd: folder, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const prompt = await new Promise<RegExpExecArray>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const match = /open (\S+) and enter the code (\S+)/.exec(stderr);
        if (match) resolve(match);
      });
      child.on('close', () => reject(new Error(`exited before the prompt: ${stderr}`)));
    });
    const [, address, code] = prompt;
    assert.equal(address, sandbox.endpoints.deviceVerification);
    const mario = sandbox.users.find((user) => user.username === 'mario.rossi')!;
    await new FormBrowser().approveDevice(address, { username: mario.username, password: mario.password }, code);
    assert.equal(await exited, 0, stdout + stderr);
    assert.match(stdout, /Signed in as Mario Rossi at http:\/\/127\.0\.0\.1:\d+\. Nothing was stored/);
  });
});
