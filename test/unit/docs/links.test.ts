// Every relative link of the project's documents resolves: the file (or folder) exists, and an anchor
// names a heading of its target as GitHub slugs it. Absolute URLs are not fetched (no network in tests).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { anchorsOf, githubSlug, linksOf } from './markdownLinks';

const REPO = path.resolve(__dirname, '..', '..', '..');

/** The documents a reader follows links in. */
export const DOCUMENTS = ['README.md', 'CHANGELOG.md', 'src/README.md', 'test/bench/README.md', 'test/sandbox/README.md', 'test/vscode/runner/README.md'];

/** What is wrong with each relative link of `file` (repository-relative), as `file:line: target: why`. */
export function brokenLinks(file: string, read: (file: string) => string | undefined = readDocument): string[] {
  const text = read(file);
  if (text === undefined) return [`${file}: the document does not exist`];
  const broken: string[] = [];
  for (const { target, line } of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [rawPath, anchor] = splitTarget(target);
    const resolved = rawPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), rawPath));
    const where = `${file}:${line}: ${target}`;
    if (resolved.startsWith('../')) {
      broken.push(`${where}: leaves the repository`);
      continue;
    }
    const kind = read(resolved) !== undefined ? 'file' : isFolder(resolved) ? 'folder' : undefined;
    if (!kind) {
      broken.push(`${where}: ${resolved} does not exist`);
      continue;
    }
    if (anchor === undefined) continue;
    if (kind !== 'file' || !resolved.endsWith('.md')) {
      broken.push(`${where}: an anchor into ${resolved}, which is not a Markdown file`);
      continue;
    }
    if (!anchorsOf(read(resolved)!).has(anchor)) broken.push(`${where}: ${resolved} has no heading whose anchor is #${anchor}`);
  }
  return broken;
}

function splitTarget(target: string): [string, string | undefined] {
  const hash = target.indexOf('#');
  const withoutQuery = (hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
  return [decodeURIComponent(withoutQuery), hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1))];
}

function readDocument(file: string): string | undefined {
  try {
    return fs.readFileSync(path.join(REPO, file), 'utf8');
  } catch {
    return undefined;
  }
}

function isFolder(file: string): boolean {
  return fs.statSync(path.join(REPO, file), { throwIfNoEntry: false })?.isDirectory() === true;
}

describe('documents: every relative link resolves', () => {
  for (const file of DOCUMENTS) {
    it(file, () => {
      assert.deepEqual(brokenLinks(file), []);
    });
  }

  it('slugs headings as GitHub does', () => {
    assert.equal(githubSlug('Run in CI'), 'run-in-ci');
    assert.equal(githubSlug("What `npm start` prints (it's short)"), 'what-npm-start-prints-its-short');
    assert.equal(githubSlug('Options of `startSandbox` (`SandboxOptions`)'), 'options-of-startsandbox-sandboxoptions');
    assert.equal(githubSlug('Prerequisites (Debian 12)'), 'prerequisites-debian-12');
    assert.equal(githubSlug('A **bold** [link](x.md) and snake_case'), 'a-bold-link-and-snake_case');
    assert.equal(githubSlug('Città: perché no?'), 'città-perché-no');
    assert.equal(githubSlug('Two  spaces - and a dash'), 'two--spaces---and-a-dash');
  });

  it('finds what is broken: a missing file, a missing anchor, a link out of the repository', () => {
    const files: Record<string, string> = {
      'docs/a.md': [
        '# Title',
        '## Title',
        'See [b](b.md#second-part), [the top](#title-1), [gone](missing.md), [no anchor](b.md#nothing),',
        '[up](../../outside.md), [site](https://example.com/x.md#y) and ![a picture](pic.png).',
        '```md',
        '[in code](nowhere.md)',
        '```',
        'Inline `[code](nowhere.md)` and <!-- [a comment](nowhere.md) --> hold no link.',
      ].join('\n'),
      'docs/b.md': '# First\n## Second part\n',
      'docs/pic.png': '',
    };
    const broken = brokenLinks('docs/a.md', (file) => files[file]);
    assert.deepEqual(broken, [
      'docs/a.md:3: missing.md: docs/missing.md does not exist',
      'docs/a.md:3: b.md#nothing: docs/b.md has no heading whose anchor is #nothing',
      'docs/a.md:4: ../../outside.md: leaves the repository',
    ]);
  });

  it('a heading inside a code block is no anchor; a repeated heading gets -1', () => {
    const anchors = anchorsOf('# Usage\n```http\n# @name ditte\n```\n## Usage\n<a id="kept"></a>\n');
    assert.deepEqual([...anchors].sort(), ['kept', 'usage', 'usage-1']);
  });
});
