// Strict readers of the runner's reports, as the tools that read them would: the JUnit XML validated
// against test/helpers/junit.xsd by libxml2 (xmllint-wasm); the HTML parsed by parse5 with every
// parse error reported, and walked for any reference outside the file; the Markdown's tables read
// row by row, each row with as many cells as its header.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { validateXML } from 'xmllint-wasm';

const SCHEMA = path.join(__dirname, 'junit.xsd');

/** The schema's errors for this JUnit text (none: valid). */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: fs.readFileSync(SCHEMA, 'utf8') }] });
  return result.valid ? [] : result.errors.map((error) => error.rawMessage);
}

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

export interface HtmlDocument {
  errors: string[];
  /** Every element, in document order. */
  elements: Element[];
  /** The text of the document's body. */
  text: string;
  /** Everything that would load something from outside the file: a script, a link, a src, a url(), an @import, an href that is not a fragment. */
  externalReferences: string[];
}

function walk(node: Node, into: Element[]): void {
  if ('tagName' in node) into.push(node);
  const children = 'childNodes' in node ? node.childNodes : [];
  for (const child of children) walk(child, into);
  if ('content' in node && node.content) walk(node.content as Node, into);
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return ('childNodes' in node ? node.childNodes : []).map(textOf).join('');
}

export function readHtml(html: string): HtmlDocument {
  const errors: string[] = [];
  const document = parse(html, { onParseError: (error) => errors.push(`${error.code} at ${error.startLine}:${error.startCol}`) });
  const elements: Element[] = [];
  walk(document, elements);
  const external: string[] = [];
  for (const element of elements) {
    if (['script', 'link', 'iframe', 'object', 'embed', 'img', 'base', 'audio', 'video', 'source'].includes(element.tagName)) external.push(`<${element.tagName}>`);
    for (const attribute of element.attrs) {
      if (['src', 'srcset', 'action', 'formaction', 'poster', 'data'].includes(attribute.name)) external.push(`${element.tagName}[${attribute.name}]`);
      if (attribute.name === 'href' && !attribute.value.startsWith('#')) external.push(`${element.tagName}[href=${attribute.value}]`);
      if (attribute.name.startsWith('on')) external.push(`${element.tagName}[${attribute.name}]`);
      if (attribute.name === 'style' && /url\(|@import/i.test(attribute.value)) external.push(`${element.tagName}[style]`);
    }
    if (element.tagName === 'style' && /url\(|@import|@font-face/i.test(textOf(element))) external.push('<style> loads something');
  }
  const body = elements.find((element) => element.tagName === 'body');
  return { errors, elements, text: body ? textOf(body) : '', externalReferences: external };
}

/** The cells of a Markdown table row (`| a | b \| c |`: escaped pipes stay in their cell). */
export function markdownCells(line: string): string[] {
  if (!/^\|.*\|$/.test(line.trim())) throw new Error(`not a table row: ${line}`);
  const inner = line.trim().slice(1, -1);
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** Each table of a Markdown text: its header and its rows as objects keyed by the header; throws on a row whose cells do not match. */
export function markdownTables(text: string): Array<Array<Record<string, string>>> {
  const lines = text.split('\n');
  const tables: Array<Array<Record<string, string>>> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('|') || !/^\|(\s*:?-{3,}:?\s*\|)+$/.test(lines[i + 1] ?? '')) continue;
    const header = markdownCells(lines[i]);
    if (markdownCells(lines[i + 1]).length !== header.length) throw new Error(`the rule under ${lines[i]} has another number of cells`);
    const rows: Array<Record<string, string>> = [];
    for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) {
      const cells = markdownCells(lines[i]);
      if (cells.length !== header.length) throw new Error(`${cells.length} cells, not ${header.length}: ${lines[i]}`);
      rows.push(Object.fromEntries(header.map((name, index) => [name, cells[index]])));
    }
    tables.push(rows);
  }
  return tables;
}
