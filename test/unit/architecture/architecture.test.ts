// The stated boundaries of src/, checked on every file so that they stay true (rules.ts says why each holds).
import * as assert from 'node:assert/strict';
import { configurationViolations, extensionContextViolations, importViolations, lengthViolations, MAX_FUNCTION_LINES, staleExemptions } from './rules';
import { readFacts, sourceFiles } from './sourceFacts';

describe('architecture of src/', () => {
  const files = sourceFiles('src');
  const facts = files.map((file) => readFacts(file));

  it('reads every source file', () => {
    assert.ok(files.length > 40, `only ${files.length} files found under src/`);
    assert.ok(facts.some((file) => file.imports.some((used) => used.target === 'vscode')), 'no vscode import found at all: the reader is broken');
  });

  it('keeps vscode out of src/api, src/common, src/engine and src/auth (outside src/auth/vscode), and every import down the layers', () => {
    assert.deepEqual(importViolations(facts), []);
  });

  it('reads the editor configuration only in src/settings', () => {
    assert.deepEqual(configurationViolations(facts), []);
  });

  it('keeps the extension\'s context, and with it every environment\'s secrets, in the composition root', () => {
    assert.ok(facts.some((file) => file.file === 'src/extension.ts' && file.extensionContextUses.length > 0), 'the composition root names no ExtensionContext: the reader is broken');
    assert.deepEqual(extensionContextViolations(facts), []);
  });

  it(`has no function longer than ${MAX_FUNCTION_LINES} lines`, () => {
    assert.deepEqual(lengthViolations(facts), []);
  });

  it('keeps no stale exemption from the length rule', () => {
    assert.deepEqual(staleExemptions(facts), []);
  });
});
