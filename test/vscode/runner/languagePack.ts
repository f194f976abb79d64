// A VS Code display-language pack for code-server, built offline from npm packages, so that the
// in-editor suite (and npm start) can show the editor in Italian: `npm run test:vscode -- --locale it`.
//
// VS Code's own language packs (MS-CEINTL.vscode-language-pack-*) come from the Marketplace, not the
// npm registry. The npm registry has CodinGame's repackaging for monaco-vscode-api, whose version 17
// follows VS Code 1.100: `@codingame/monaco-vscode-language-pack-<locale>` holds the translations of the
// built-in extensions keyed as VS Code's language packs key them, and those of the core by message
// index; `@codingame/monaco-vscode-api` (its dependency) holds the English message of each index.
// Matching the English text to code-server's own message table (out/nls.keys.json,
// nls.messages.json) gives the keyed `main.i18n.json` that the VS Code server turns into its NLS
// files. Measured for Italian: 2909 of code-server's 14531 core messages (the editor and base
// widgets; most workbench parts stay English, their English lives in other npm packages) and all 89
// built-in extensions. The extension's own strings do not depend on this coverage: the pack only
// makes VS Code run in that language (vscode.env.language), and the extension's l10n bundles follow.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot, logsDir } from './paths';
import { run } from './processes';

const PACKAGE_VERSION = '17.1.2';

function say(message: string): void {
  process.stderr.write(`[language pack] ${message}\n`);
}

export interface LanguagePack {
  locale: string;
  /** Copy into the user-data-dir of code-server (with User/argv.json saying { "locale": locale }). */
  languagePacksJson: string;
  coreMessages: number;
  translatedCoreMessages: number;
}

/** Installs the npm packages into the cache and builds the pack once per locale and code-server build. */
export async function ensureLanguagePack(locale: string, vscodeOutDir: string): Promise<LanguagePack> {
  const dir = path.join(cacheRoot, `language-pack-${locale}-${PACKAGE_VERSION}`);
  const built = path.join(dir, 'pack', 'languagepacks.json');
  const summaryFile = path.join(dir, 'pack', 'summary.json');
  if (fs.existsSync(built) && fs.existsSync(summaryFile)) return { locale, languagePacksJson: built, ...JSON.parse(fs.readFileSync(summaryFile, 'utf8')) };
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(logsDir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'language-pack-cache', private: true }));
  const name = `@codingame/monaco-vscode-language-pack-${locale}@${PACKAGE_VERSION}`;
  say(`installing ${name} for the ${locale} display language (first use only)`);
  const code = await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', name], {
    cwd: dir,
    logFile: path.join(logsDir, `language-pack-${locale}.log`),
    timeoutMs: 5 * 60_000,
  });
  if (code !== 0) throw new Error(`npm install ${name} failed (exit code ${code}); see .vscode-test/logs/language-pack-${locale}.log`);
  const modules = path.join(dir, 'node_modules', '@codingame');
  const summary = await buildPack(path.join(modules, `monaco-vscode-language-pack-${locale}`), path.join(modules, 'monaco-vscode-api'), vscodeOutDir, path.join(dir, 'pack'), locale);
  fs.writeFileSync(summaryFile, JSON.stringify(summary));
  say(`language pack ${locale}: ${summary.translatedCoreMessages} of ${summary.coreMessages} core messages translated`);
  return { locale, languagePacksJson: built, ...summary };
}

/** localize(<index>, "<English>") and localize2(...) calls in the compiled monaco-vscode-api sources. */
function englishByIndex(apiDir: string): Map<number, string> {
  const found = new Map<number, string>();
  const call = /localize2?\(\s*(\d+)\s*,\s*("(?:[^"\\]|\\.)*")/g;
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.js')) {
        const text = fs.readFileSync(file, 'utf8');
        for (const match of text.matchAll(call)) {
          try {
            found.set(Number(match[1]), JSON.parse(match[2]) as string);
          } catch {
            // not a plain JSON string literal: skip it
          }
        }
      }
    }
  };
  walk(apiDir);
  return found;
}

async function buildPack(packDir: string, apiDir: string, vscodeOutDir: string, outDir: string, locale: string) {
  const byIndex = ((await import(pathToFileURL(path.join(packDir, 'translations', 'main.i18n.json.js')).href)) as { default: Array<string | undefined> }).default;
  const translated = new Map<string, string>();
  for (const [index, english] of englishByIndex(apiDir)) {
    const text = byIndex[index];
    if (text && !translated.has(english)) translated.set(english, text);
  }
  const keys = JSON.parse(fs.readFileSync(path.join(vscodeOutDir, 'nls.keys.json'), 'utf8')) as Array<[string, string[]]>;
  const messages = JSON.parse(fs.readFileSync(path.join(vscodeOutDir, 'nls.messages.json'), 'utf8')) as string[];
  const contents: Record<string, Record<string, string>> = {};
  let index = 0;
  let hits = 0;
  for (const [module, names] of keys) {
    for (const key of names) {
      const text = translated.get(messages[index++]);
      if (text) {
        (contents[module] ??= {})[key] = text;
        hits++;
      }
    }
  }
  fs.mkdirSync(outDir, { recursive: true });
  const translations: Record<string, string> = { vscode: path.join(outDir, 'main.i18n.json') };
  fs.writeFileSync(translations.vscode, JSON.stringify({ contents }));
  const extensionsDir = path.join(packDir, 'translations', 'extensions');
  for (const file of fs.readdirSync(extensionsDir)) {
    translations[file.replace(/\.i18n\.json$/, '')] = path.join(outDir, file);
    fs.copyFileSync(path.join(extensionsDir, file), path.join(outDir, file));
  }
  // The layout VS Code's extension management writes for installed language packs.
  fs.writeFileSync(path.join(outDir, 'languagepacks.json'), JSON.stringify({
    [locale]: {
      hash: `npm-${PACKAGE_VERSION}-${hits}`,
      label: locale,
      extensions: [{ extensionIdentifier: { id: `ms-ceintl.vscode-language-pack-${locale}` }, version: PACKAGE_VERSION }],
      translations,
    },
  }, null, 1));
  return { coreMessages: messages.length, translatedCoreMessages: hits };
}
