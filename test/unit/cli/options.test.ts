// The runner's command line: the table of options, values, usage errors, and never a secret echoed.
import * as assert from 'node:assert/strict';
import { OPTIONS, parseArguments, UsageError, usageText } from '../../../src/cli/options';

describe('tenant-api command line', () => {
  it('reads run with files and every option, in either form', () => {
    const args = parseArguments([
      'run', 'a.http', 'tests/**/*.http', '--env', 'Sandbox', '--tenant=RC-MI', '--reporter', 'junit=out/j.xml', '--reporter=json=out/r.json',
      '--bail', '--timeout', '2.5', '--max-calls=10', '--keep-quota', '20', '--quiet', '--grant', 'password', '--secret-stdin', '--workspace', 'ws',
      '--ledger', 'redis://127.0.0.1:6379/0', '--ledger-fallback=local', '--data', 'rows.csv', '--tag', 'smoke,slow', '--tag=nightly', '--name', '^conf',
      '--reporter', 'html=out/r.html', '--reporter=markdown=out/r.md',
    ]);
    assert.deepEqual(args, {
      command: 'run',
      files: ['a.http', 'tests/**/*.http'],
      env: 'Sandbox',
      tenant: 'RC-MI',
      data: 'rows.csv',
      tags: ['smoke', 'slow', 'nightly'],
      name: '^conf',
      reporters: [{ kind: 'junit', path: 'out/j.xml' }, { kind: 'json', path: 'out/r.json' }, { kind: 'html', path: 'out/r.html' }, { kind: 'markdown', path: 'out/r.md' }],
      bail: true,
      timeoutSeconds: 2.5,
      maxCalls: 10,
      keepQuotaPercent: 20,
      dryRun: false,
      verbosity: 'quiet',
      grant: 'password',
      secretStdin: true,
      workspace: 'ws',
      ledger: 'redis://127.0.0.1:6379/0',
      ledgerFallback: 'local',
      force: false,
    });
    assert.equal(parseArguments(['run', 'a.http']).ledgerFallback, 'fail', 'Redis unreachable stops the run unless asked otherwise');
    assert.throws(() => parseArguments(['run', 'a.http', '--ledger-fallback', 'maybe']), /--ledger-fallback takes fail, local/);
  });

  it('reads --version, --help, help and login', () => {
    assert.equal(parseArguments(['--version']).command, 'version');
    assert.equal(parseArguments([]).command, 'help');
    assert.equal(parseArguments(['run', 'a.http', '--help']).command, 'help');
    assert.equal(parseArguments(['login', '--env', 'x']).env, 'x');
    assert.equal(parseArguments(['run', 'a.http', '--dry-run', '--verbose']).dryRun, true);
  });

  const refused: Array<[string[], RegExp]> = [
    [['run', 'a.http', '--frobnicate'], /Unknown option --frobnicate/],
    [['run'], /needs at least one request file/],
    [['deploy'], /Unknown command "deploy"/],
    [['run', 'a.http', '--env'], /--env needs a value/],
    [['run', 'a.http', '--max-calls', '1.5'], /--max-calls needs a whole number, got "1.5"/],
    [['run', 'a.http', '--keep-quota', '120'], /--keep-quota needs a number, got "120". It goes from 0 to 100\./],
    [['run', 'a.http', '--timeout', '0'], /--timeout needs a number/],
    [['run', 'a.http', '--timeout', '0.5'], /--timeout needs a number, got "0.5". It goes from 1 to 3600\./],
    [['run', 'a.http', '--timeout', '3601'], /It goes from 1 to 3600\./],
    [['run', 'a.http', '--reporter', 'pdf=x'], /--reporter takes junit=PATH, json=PATH, html=PATH or markdown=PATH/],
    [['run', 'a.http', '--name', '(unclosed'], /--name takes a regular expression/],
    [['run', 'a.http', '--grant', 'implicit'], /--grant takes client_credentials, password, device/],
    [['run', 'a.http', '--bail=yes'], /--bail takes no value/],
    [['login', '--tenant', 'x'], /Unknown option --tenant for "login"/],
    [['login', 'a.http'], /takes no files/],
  ];
  for (const [argv, message] of refused) {
    it(`refuses ${argv.join(' ') || '(nothing)'} with a usage error`, () => {
      assert.throws(() => parseArguments(argv), (error: unknown) => error instanceof UsageError && message.test(error.message));
    });
  }

  it('takes no secret as an option, and never repeats the value of an unknown one', () => {
    for (const name of ['--client-secret', '--password', '--token', '--key']) {
      assert.ok(!OPTIONS.some((option) => option.name === name), `${name} is an option`);
      assert.throws(
        () => parseArguments(['run', 'a.http', `${name}=s3cr3t-value`]),
        (error: unknown) => error instanceof UsageError && error.message.includes(name) && !error.message.includes('s3cr3t-value'),
      );
    }
  });

  it('documents every option of the table in the help', () => {
    const help = usageText();
    for (const option of OPTIONS) assert.ok(help.includes(option.name), `${option.name} is not in the help`);
    assert.match(help, /TENANT_API_CLIENT_SECRET/);
  });
});
