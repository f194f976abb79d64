// Bundles the extension (and, with --tests, the in-editor test suite) into CommonJS for the extension host.
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
};

const builds = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    minify: production,
    sourcemap: production ? 'linked' : 'inline',
    sourcesContent: !production,
  },
];

if (tests) {
  builds.push({
    ...common,
    entryPoints: ['test/vscode/suite/index.ts'],
    outfile: 'dist/test/suite.js',
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
