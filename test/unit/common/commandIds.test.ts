import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMAND, commandTableProblems, EDITOR_COMMAND, INTERNAL_COMMAND, REGISTERED_COMMAND_IDS } from '../../../src/common/commandIds';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

function contributedCommands(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string }> } };
  return manifest.contributes.commands.map((entry) => entry.command);
}

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the table of command ids (src/common/commandIds.ts)', () => {
  it('names every command of package.json', () => {
    const table = new Set<string>(Object.values(COMMAND));
    assert.deepEqual(contributedCommands().filter((id) => !table.has(id)), []);
  });

  it('names no contributed command that package.json lacks, and no internal one that it has', () => {
    const contributed = new Set(contributedCommands());
    assert.deepEqual(Object.values(COMMAND).filter((id) => !contributed.has(id)), []);
    assert.deepEqual(Object.values(INTERNAL_COMMAND).filter((id) => contributed.has(id)), []);
  });

  it('holds each id once', () => {
    assert.equal(new Set(REGISTERED_COMMAND_IDS).size, REGISTERED_COMMAND_IDS.length);
  });

  it('is the only place in src/ that writes a command id, the editor\'s own that the extension runs included', () => {
    const table = path.join(repoRoot, 'src', 'common', 'commandIds.ts');
    const found: string[] = [];
    for (const file of sourceFiles(path.join(repoRoot, 'src')).filter((candidate) => candidate !== table)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const id of [...REGISTERED_COMMAND_IDS, ...Object.values(EDITOR_COMMAND)]) {
        if (text.includes(`'${id}'`) || text.includes(`"${id}"`) || text.includes(`\`${id}\``)) found.push(`${path.relative(repoRoot, file)}: ${id}`);
      }
    }
    assert.deepEqual(found, []);
  });
});

describe('the registrar (src/commands/registrar.ts)', () => {
  const all = (ids: readonly string[]) => Object.fromEntries(ids.map((id) => [id, () => undefined]));

  it('accepts handlers that cover the table once, in either group', () => {
    const ids = [...REGISTERED_COMMAND_IDS];
    assert.deepEqual(commandTableProblems(all(ids.slice(0, 5)), all(ids.slice(5))), []);
  });

  it('names an id without a handler, one handled twice, and one outside the table', () => {
    const ids = [...REGISTERED_COMMAND_IDS];
    const problems = commandTableProblems({ ...all(ids.slice(0, 5)), ...all(['tenantApi.nothing']) }, all(ids.slice(4, -1)));
    assert.deepEqual(problems, [`${ids[4]} is handled twice`, `${ids[ids.length - 1]} has no handler`, 'tenantApi.nothing is not in the table']);
  });

  it('is the only file of src/ that registers a command', () => {
    const found = sourceFiles(path.join(repoRoot, 'src'))
      .filter((file) => fs.readFileSync(file, 'utf8').includes('commands.registerCommand('))
      .map((file) => path.relative(repoRoot, file));
    assert.deepEqual(found, [path.join('src', 'commands', 'registrar.ts')]);
  });
});
