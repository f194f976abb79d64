// What `npm start` prints agrees with what it does: the settings it prints are the
// ones the editor it opens gets, and its next steps say what the extension does without a licence key.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSandbox } from '../../sandbox';
import { NEXT_STEPS, SETTINGS_TITLE, editorSettings, summaryText } from '../../sandbox/summary';
import type { Sandbox } from '../../sandbox/types';

describe('npm start: its summary and next steps', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({});
  });
  after(async () => {
    await sandbox.close();
  });

  it('prints, as the editor\'s settings, exactly the top-level settings it applies (no environment left unconfigured)', () => {
    const text = summaryText(sandbox, SETTINGS_TITLE);
    const start = text.indexOf(SETTINGS_TITLE) + SETTINGS_TITLE.length;
    const printed = JSON.parse(text.slice(start, text.indexOf('\nUsers', start))) as Record<string, unknown>;
    assert.deepEqual(printed, editorSettings(sandbox));
    assert.equal(printed['tenantApi.baseUrl'], sandbox.baseUrl);
    assert.ok(!('tenantApi.environments' in printed), 'an environment beside an empty default shows "Default - not configured"');
  });

  it('says that without a key the extension does not call the resource (no "401"), and where example.http is', () => {
    assert.doesNotMatch(NEXT_STEPS, /401/);
    assert.match(NEXT_STEPS, /does\s+not call those resources/);
    assert.match(NEXT_STEPS, /example\.http/);
  });

  it('example.http (opened at start) names no English-only lens title: the lens speaks the editor\'s language', () => {
    const example = fs.readFileSync(path.join(__dirname, '..', '..', 'sandbox', 'requests', 'example.http'), 'utf8');
    assert.doesNotMatch(example, /Send \(Tenant API\)|Invia \(Tenant API\)/);
  });
});
