// `tsx test/vscode/runner/installCodeServer.ts [--locale it]`: installs code-server into the cache (what the
// runner does on first use), and with --locale the display-language pack of that locale. .ci/run does
// this in the background while npm test runs.
import { ensureCodeServer, ensureDisplayLanguage } from './codeServer';

const started = Date.now();
const localeFlag = process.argv.indexOf('--locale');
const locale = localeFlag >= 0 ? process.argv[localeFlag + 1] : undefined;
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const install = await ensureCodeServer();
  console.log(`code-server ${install.version} (VS Code ${install.vscodeVersion}) ready in ${seconds()}: ${install.entry}`);
  if (!locale) return;
  const pack = await ensureDisplayLanguage(locale);
  console.log(`display language ${pack.locale} ready in ${seconds()} (${pack.translatedCoreMessages} of ${pack.coreMessages} core messages translated)`);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
