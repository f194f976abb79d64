// Extracts every localizable string of src/: vscode.l10n.t(...) and the src/common/l10n shim's l10n.t(...).
// @vscode/l10n-dev only recognizes calls on imports from 'vscode' or '@vscode/l10n', so the shim's
// import is rewritten in memory before extraction.
//   npx tsx test/unit/views/l10nExtract.ts --write   rewrites l10n/bundle.l10n.json
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

export async function extractStrings(): Promise<Record<string, string>> {
  const shim = path.join('src', 'common', 'l10n.ts');
  const files = sourceFiles(path.join(repoRoot, 'src')).filter((file) => !file.endsWith(shim));
  const contents = files.map((file) => ({
    extension: '.ts',
    contents: fs.readFileSync(file, 'utf8').replace(/from '(?:\.\.?\/)+(?:common\/)?l10n'/g, "from '@vscode/l10n'"),
  }));
  const json = await getL10nJson(contents);
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(json)) strings[key] = typeof value === 'string' ? value : value.message;
  return strings;
}

if (require.main === module && process.argv.includes('--write')) {
  void extractStrings().then((strings) => {
    const file = path.join(repoRoot, 'l10n', 'bundle.l10n.json');
    fs.writeFileSync(file, JSON.stringify(strings, null, 2) + '\n');
    console.log(`${Object.keys(strings).length} strings written to ${path.relative(repoRoot, file)}`);
  });
}
