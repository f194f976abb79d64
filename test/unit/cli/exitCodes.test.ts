// The exit codes are a contract with CI configurations: distinct, documented in the README, and the
// worst reason wins.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXIT_CODES, exitCode, worstReason } from '../../../src/cli/exitCodes';

describe('tenant-api exit codes', () => {
  it('are distinct, 0 only when everything passed', () => {
    const codes = EXIT_CODES.map((entry) => entry.code);
    assert.equal(new Set(codes).size, codes.length);
    assert.equal(exitCode('passed'), 0);
    assert.ok(EXIT_CODES.filter((entry) => entry.reason !== 'passed').every((entry) => entry.code > 0));
  });

  it('give the first reason of the table when several occurred', () => {
    assert.equal(worstReason([]), 'passed');
    assert.equal(worstReason(['assertionFailed', 'requestFailed']), 'requestFailed');
    assert.equal(worstReason(['assertionFailed', 'quotaGuard', 'requestFailed']), 'quotaGuard');
    assert.equal(worstReason(['assertionFailed', 'assertionFailed']), 'assertionFailed');
  });

  it('are the table of the README', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
    for (const entry of EXIT_CODES) {
      assert.ok(readme.includes(`| ${entry.code} | ${entry.meaning()} |`), `the README has no row "| ${entry.code} | ${entry.meaning()} |"`);
    }
  });
});
