// Bundles the extension and the runner dist/cli.js (and, with --tests, the in-editor test suite) into CommonJS for the extension host.
import * as fs from 'node:fs';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  logLevel: 'info',
  // The catalogue's heavy half is dist/catalog.js, required by name when a catalogue is first needed (src/catalog/lazyLibrary.ts).
  define: { CATALOGUE_BUNDLE: '"catalog.js"' },
  // jsonc-parser's "main" is a UMD build whose requires a bundler cannot follow: its ES module build instead.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

const builds = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    minify: production,
    // Production: the map is written beside the bundle (to read a user's stack trace) but not linked from it, and .vscodeignore leaves it out of the .vsix.
    sourcemap: production ? 'external' : 'inline',
    sourcesContent: !production,
  },
  {
    // The headless runner (`tenant-api`, the package's bin): plain Node, no vscode, one file.
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    external: [],
    minify: production,
    // Whitespace and syntax minified in every build, names kept (stack traces name functions): a third less to read and parse before the first call.
    minifyWhitespace: true,
    minifySyntax: true,
    // For `node --enable-source-maps dist/cli.js` in the repository: the map stays out of the tarball (.npmignore) and the .vsix (.vscodeignore).
    sourcemap: 'linked',
    sourcesContent: false,
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The catalogue's heavy half (YAML, references, JSON Schema, samples): out of activation, loaded on first use by both.
    ...common,
    entryPoints: ['src/catalog/library.ts'],
    outfile: 'dist/catalog.js',
    external: [],
    minify: production,
  },
  {
    // Copy as Code's snippet generator (httpsnippet) in a file of its own, required when a snippet is
    // asked for: the extension's bundle does not carry it, so activation never loads it.
    ...common,
    entryPoints: ['src/engine/codeSnippets.ts'],
    outfile: 'dist/codeSnippets.js',
    minify: production,
  },
  {
    // The webviews' scripts and styles (the table view, the usage panel): for the browser, out of the
    // activation bundle, each page loading only its own file from dist/webview/.
    entryPoints: { table: 'src/webview/table/main.ts', usage: 'src/webview/usage/main.ts' },
    outdir: 'dist/webview',
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'info',
    minify: production,
    sourcemap: production ? false : 'inline',
  },
];

if (tests) {
  // The in-editor suite: index.ts (mocha's entry, run() in the extension host) and every
  // test/vscode/suite/*.test.ts, each bundled on its own into dist/test/suite/ so that a new test
  // file needs no edit anywhere (index.ts loads every *.test.js beside it). helpers/ is imported.
  const suiteDir = 'test/vscode/suite';
  const entryPoints = fs
    .readdirSync(suiteDir)
    .filter((name) => name === 'index.ts' || name.endsWith('.test.ts'))
    .map((name) => `${suiteDir}/${name}`);
  // Drop bundles whose source is gone, without emptying the folder: another run may be loading from it.
  for (const name of fs.existsSync('dist/test/suite') ? fs.readdirSync('dist/test/suite') : []) {
    if (name.endsWith('.js') && !fs.existsSync(`${suiteDir}/${name.replace(/\.js$/, '.ts')}`)) fs.rmSync(`dist/test/suite/${name}`);
  }
  builds.push({
    ...common,
    entryPoints,
    outdir: 'dist/test/suite',
    sourcemap: 'inline',
    // mocha and the sandbox load from node_modules at run time: they read their own files.
    external: ['vscode', 'mocha', 'oidc-provider', 'playwright-core'],
  });
}

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
