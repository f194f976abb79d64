// What the .vsix carries and what its Marketplace page needs, read from the manifest and from vsce's
// own file list (the rules of .vscodeignore as vsce applies them), without building a package.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listFiles, PackageManager } from '@vscode/vsce';
import { linksOf } from './markdownLinks';

const REPO = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');

/** The Marketplace's categories (VS Code's extension manifest reference). */
const MARKETPLACE_CATEGORIES = ['AI', 'Azure', 'Chat', 'Data Science', 'Debuggers', 'Education', 'Extension Packs', 'Formatters', 'Keymaps', 'Language Packs', 'Linters', 'Machine Learning', 'Notebooks', 'Other', 'Programming Languages', 'SCM Providers', 'Snippets', 'Testing', 'Themes', 'Visualization'];

/** Every file of the extension's folder the manifest points at: what VS Code reads from the installed extension. */
function filesTheManifestShows(): string[] {
  const contributes = manifest.contributes;
  const walkthroughMedia = contributes.walkthroughs.flatMap((walkthrough: { steps: Array<{ media: { image?: string; markdown?: string } }> }) =>
    walkthrough.steps.map((step) => step.media.image ?? step.media.markdown),
  );
  const containers = Object.values(contributes.viewsContainers ?? {}).flat() as Array<{ icon?: string }>;
  return [
    manifest.main,
    manifest.bin['tenant-api'],
    manifest.icon,
    ...containers.map((container) => container.icon).filter((icon): icon is string => typeof icon === 'string' && !icon.startsWith('$(')),
    ...contributes.languages.map((language: { configuration: string }) => language.configuration),
    ...contributes.grammars.map((grammar: { path: string }) => grammar.path),
    ...walkthroughMedia,
  ].map((file: string) => path.posix.normalize(file));
}

describe('the package', function () {
  // vsce walks the whole working tree; on a loaded machine that takes a while.
  this.timeout(120_000);

  it('the .vsix carries what the manifest shows, and no source map, source, test or README-only picture', async () => {
    const files = await listFiles({ cwd: REPO, packageManager: PackageManager.None });
    for (const file of ['package.json', 'package.nls.json', 'package.nls.it.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'l10n/bundle.l10n.it.json']) {
      assert.ok(files.includes(file), `${file} is in the .vsix`);
    }
    for (const file of filesTheManifestShows()) {
      // The bundles exist only once built; what is on disk must be packaged.
      if (fs.existsSync(path.join(REPO, file))) assert.ok(files.includes(file), `${file} (named in package.json) is in the .vsix`);
    }
    // The bundles the extension starts by name (the catalogue's worker, Copy as Code's snippets) are no
    // import esbuild or vsce can follow: each one built must be packaged.
    const built = fs.existsSync(path.join(REPO, 'dist')) ? fs.readdirSync(path.join(REPO, 'dist')).filter((name) => name.endsWith('.js')) : [];
    for (const name of built) assert.ok(files.includes(`dist/${name}`), `dist/${name} (built by esbuild.mjs) is in the .vsix`);
    if (built.includes('extension.js')) assert.ok(built.includes('catalog.js'), 'the catalogue\'s worker, dist/catalog.js, is built beside dist/extension.js');
    const unwanted = files.filter((file) => /\.map$/.test(file) || /^(src|test|node_modules|\.vscode-test|dist\/test)\//.test(file) || file.endsWith('.ts'));
    assert.deepEqual(unwanted, [], 'no source map, source, test or dependency');
    const readmeOnly = linksOf(readme)
      .map((link) => link.target)
      .filter((target) => target.startsWith('media/') && !filesTheManifestShows().includes(target));
    assert.ok(readmeOnly.length > 0, 'the README shows pictures of its own');
    assert.deepEqual(readmeOnly.filter((picture) => files.includes(picture)), [], 'pictures only the README shows stay out of the .vsix');
  });

  it('the packaged README\'s pictures and links point at the repository, over https', () => {
    const repository = String(manifest.repository.url).replace(/\.git$/, '');
    const option = (name: string) => new RegExp(`--${name} (\\S+)`).exec(manifest.scripts.package)?.[1];
    for (const name of ['baseContentUrl', 'baseImagesUrl']) {
      const base = option(name);
      assert.ok(base?.startsWith(`${repository}/`), `npm run package passes --${name} under ${repository}: ${base}`);
      assert.match(base!, /^https:\/\//, 'the Marketplace shows only https pictures');
    }
    assert.doesNotMatch(manifest.scripts.package, /--no-rewrite-relative-links/);
    const pictures = linksOf(readme).map((link) => link.target).filter((target) => /\.(png|jpe?g|gif|svg)$/i.test(target));
    assert.ok(pictures.length >= 5, 'the README shows the Tenants view, a response, a request file, the Testing view and the CLI');
    for (const picture of pictures) {
      assert.match(picture, /^media\/[\w.-]+\.(png|gif|jpe?g)$/, `${picture}: relative, under media/, no SVG (the Marketplace refuses SVG pictures in a README)`);
    }
  });

  it('the Marketplace page: icon, banner, categories, keywords, the issue tracker', () => {
    const icon = fs.readFileSync(path.join(REPO, manifest.icon));
    assert.equal(icon.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(icon.readUInt32BE(16) >= 128 && icon.readUInt32BE(20) >= 128, 'the icon is at least 128 x 128');
    assert.match(manifest.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner.theme));
    for (const category of manifest.categories) assert.ok(MARKETPLACE_CATEGORIES.includes(category), `${category} is a Marketplace category`);
    assert.ok(manifest.keywords.length >= 5 && manifest.keywords.length <= 30, 'the Marketplace takes at most 30 keywords');
    assert.ok(readme.includes(`](${manifest.bugs.url})`), 'the README sends problems to package.json\'s issue tracker');
  });

  it('the version is the CHANGELOG\'s newest', () => {
    const changelog = fs.readFileSync(path.join(REPO, 'CHANGELOG.md'), 'utf8');
    const newest = /^## \[(\d+\.\d+\.\d+)\]/m.exec(changelog)?.[1];
    assert.equal(manifest.version, newest);
    for (const file of ['.vsix', '.tgz']) assert.ok(readme.includes(`tenant-api-workbench-${manifest.version}${file}`), `the README installs the ${file} of this version`);
  });
});
