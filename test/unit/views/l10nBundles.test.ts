import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { extractStrings, repoRoot } from './l10nExtract';

function readJson(relative: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, relative), 'utf8')) as Record<string, unknown>;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
    return (value as { message: string }).message;
  }
  throw new Error(`not a string: ${JSON.stringify(value)}`);
}

function placeholders(message: string): string[] {
  return [...new Set(message.match(/\{\d+\}/g) ?? [])].sort();
}

function checkTranslation(englishFile: string, italianFile: string): void {
  const english = readJson(englishFile);
  const italian = readJson(italianFile);
  const problems: string[] = [];
  for (const [key, value] of Object.entries(english)) {
    if (!(key in italian)) {
      problems.push(`missing: ${JSON.stringify(key)}`);
      continue;
    }
    const translated = text(italian[key]);
    if (translated.trim() === '') problems.push(`empty: ${JSON.stringify(key)}`);
    const expected = placeholders(text(value));
    const actual = placeholders(translated);
    if (expected.join() !== actual.join()) {
      problems.push(`placeholders ${expected.join(' ')} became ${actual.join(' ') || 'none'}: ${JSON.stringify(key)}`);
    }
  }
  for (const key of Object.keys(italian)) if (!(key in english)) problems.push(`no longer used: ${JSON.stringify(key)}`);
  assert.deepEqual(problems, [], `${italianFile} does not match ${englishFile}`);
}

describe('localization', () => {
  it('translates every string of bundle.l10n.json into Italian with the same placeholders', () => {
    checkTranslation('l10n/bundle.l10n.json', 'l10n/bundle.l10n.it.json');
  });

  it('translates every manifest string of package.nls.json into Italian with the same placeholders', () => {
    checkTranslation('package.nls.json', 'package.nls.it.json');
  });

  it('every %key% of the manifest is defined in package.nls.json', () => {
    const manifest = fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8');
    const nls = readJson('package.nls.json');
    const used = [...manifest.matchAll(/"%([\w.-]+)%"/g)].map((match) => match[1]);
    assert.ok(used.length > 0);
    assert.deepEqual(used.filter((key) => !(key in nls)), []);
  });

  it('bundle.l10n.json holds every string the code localizes (run: npx tsx test/unit/views/l10nExtract.ts --write)', async function () {
    // It parses every source file: 13 s at load 10, over 60 s at load 20 beside a compile.
    this.timeout(180_000);
    const extracted = await extractStrings();
    const bundle = readJson('l10n/bundle.l10n.json');
    const missing = Object.keys(extracted).filter((key) => !(key in bundle));
    assert.deepEqual(missing, [], 'strings in src/ that l10n/bundle.l10n.json lacks');
  });
});
