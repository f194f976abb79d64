/**
 * Finds the script blocks other clients run from a request file, so that ours can set them aside and
 * say so: httpYac's `{{ ... }}` (optionally `{{@event`, `{{+`), the JetBrains client's and REST
 * Client's response handlers `> {% ... %}` and pre-request scripts `< {% ... %}`, a handler read
 * from a file (`> ./handler.js`) and a pre-request script read from a file (`< ./pre.js` above the
 * request line, as the JetBrains client and Kulala write it). None of them is ever run: a request file from a pull request must
 * not run code on the reviewer's machine. No `vscode` here.
 */

export type ScriptKind = 'script' | 'responseHandler' | 'preRequestScript' | 'handlerFile' | 'preRequestFile';

/**
 * A pre-request script file: `< ./pre.js` above the request line. Below it the same line names the
 * body's file, so the parser checks this only before the request line.
 */
export const PRE_REQUEST_FILE = /^\s*<\s+\S+\s*$/;

export interface ScriptBlock {
  kind: ScriptKind;
  /** First and last line of the block, both set aside. */
  start: number;
  end: number;
}

interface ScriptSyntax {
  kind: ScriptKind;
  opens: RegExp;
  /** Whether the opening line closes the block by itself. */
  closedOnSameLine: (text: string) => boolean;
  closes: RegExp;
}

/** One row per syntax: how a block opens, and how it ends. */
const SYNTAXES: readonly ScriptSyntax[] = [
  { kind: 'script', opens: /^\s*\{\{\s*(?:[@+-]\s*)?[\w-]*\s*$/, closedOnSameLine: () => false, closes: /^\s*\}\}\s*$/ },
  { kind: 'responseHandler', opens: /^\s*>\s*\{%/, closedOnSameLine: (text) => /%\}\s*$/.test(text), closes: /%\}\s*$/ },
  { kind: 'preRequestScript', opens: /^\s*<\s*\{%/, closedOnSameLine: (text) => /%\}\s*$/.test(text), closes: /%\}\s*$/ },
  { kind: 'handlerFile', opens: /^\s*>\s+\S+\.(?:js|mjs|cjs|ts)\s*$/, closedOnSameLine: () => true, closes: /$^/ },
];

/** The script blocks between `first` and `last`; one left open runs to `last`. */
export function scriptLines(lines: readonly string[], first: number, last: number): ScriptBlock[] {
  const blocks: ScriptBlock[] = [];
  for (let line = first; line <= last; line++) {
    const syntax = SYNTAXES.find((candidate) => candidate.opens.test(lines[line]));
    if (!syntax) continue;
    let end = line;
    if (!syntax.closedOnSameLine(lines[line].replace(syntax.opens, ''))) {
      end = line + 1;
      while (end < last && !syntax.closes.test(lines[end])) end++;
      end = Math.min(end, last);
    }
    blocks.push({ kind: syntax.kind, start: line, end });
    line = end;
  }
  return blocks;
}
