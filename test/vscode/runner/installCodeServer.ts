// `tsx test/vscode/runner/installCodeServer.ts`: installs code-server into the cache (what the runner does on first use).
import { ensureCodeServer } from './codeServer';

const started = Date.now();
ensureCodeServer().then(
  (install) => {
    console.log(`code-server ${install.version} (VS Code ${install.vscodeVersion}) ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${install.entry}`);
  },
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
