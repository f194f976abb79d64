/**
 * The links of a Markdown file and the anchors its headings make, as GitHub renders them: what the
 * link test needs, without a Markdown library. Code blocks, inline code and HTML comments hold no
 * links and no headings.
 */

export interface MarkdownLink {
  /** The target as written: `src/README.md#layers`, `#install`, `https://…`. */
  target: string;
  line: number;
}

/** The file's lines with fenced code blocks, HTML comments and inline code blanked out (line numbers kept). */
export function proseLines(text: string): string[] {
  const withoutComments = text.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '));
  let fence: string | undefined;
  return withoutComments.split('\n').map((line) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length && line.trim() === opening[1]) fence = undefined;
      return '';
    }
    if (opening) {
      fence = opening[1];
      return '';
    }
    return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (code) => ' '.repeat(code.length));
  });
}

/** Inline links and images `[text](target "title")`, reference definitions `[label]: target`, and HTML `href`/`src`. */
export function linksOf(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(text).forEach((line, index) => {
    const add = (target: string) => links.push({ target: target.replace(/^<|>$/g, ''), line: index + 1 });
    for (const match of line.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g)) add(match[1]);
    const definition = /^ {0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
    if (definition) add(definition[1]);
    for (const match of line.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/gi)) add(match[1]);
  });
  return links;
}

/** A heading's text as GitHub shows it: inline Markdown marks dropped, a link's text kept. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/(^|\W)[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}(?=\W|$)/g, '$1')
    .trim();
}

/**
 * GitHub's slug of a heading (github-slugger): lower case, every character that is not a letter, a
 * number, a mark, `_`, `-` or a space removed, each space a hyphen.
 */
export function githubSlug(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/**
 * The anchors a file offers: each heading's slug (a repeated one gets -1, -2, … as on GitHub) and the
 * ids and names of its HTML anchors. Inline code in a heading counts: its text is kept.
 */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutComments = text.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '));
  const prose = proseLines(text);
  withoutComments.split('\n').forEach((line, index) => {
    // A heading's code spans are blank in `prose`; its text comes from the line itself.
    if (prose[index] === '' && line.trim() !== '') return;
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = githubSlug(heading[1]);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of (prose[index] ?? '').matchAll(/<a\s[^>]*?(?:id|name)="([^"]+)"/gi)) anchors.add(match[1]);
  });
  return anchors;
}
