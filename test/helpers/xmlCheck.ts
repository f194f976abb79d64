// A strict, small reader of the XML the runner writes (no XML parser is a dependency): well-formed
// nesting, quoted attributes with known entities only, no stray `<` or `&`. It gives the element tree,
// so a test can count testsuites, testcases and failures as a JUnit reader would. When xmllint is on
// the machine, the text is checked by it as well.
import { spawnSync } from 'node:child_process';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = '[A-Za-z_][\\w.-]*';
const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;

function decode(text: string): string {
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(text)) throw new Error(`a bare & in ${JSON.stringify(text.slice(0, 80))}`);
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(ENTITY, (entity) => {
    const body = entity.slice(1, -1);
    if (body.startsWith('#x')) return String.fromCodePoint(parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(Number(body.slice(1)));
    return named[body];
  });
}

function attributesOf(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const pattern = new RegExp(`\\s+(${NAME})="([^"<]*)"`, 'gy');
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[1] in attributes) throw new Error(`attribute ${match[1]} twice`);
    attributes[match[1]] = decode(match[2]);
    last = pattern.lastIndex;
  }
  if (text.slice(last).trim() !== '') throw new Error(`bad attributes: ${JSON.stringify(text.slice(last, last + 80))}`);
  return attributes;
}

export function parseXml(xml: string): XmlElement {
  const prolog = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml);
  if (!prolog) throw new Error('no XML declaration');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  const tag = new RegExp(`<(/?)(${NAME})((?:\\s+${NAME}="[^"<]*")*)\\s*(/?)>`, 'y');
  let i = prolog[0].length;
  while (i < xml.length) {
    const next = xml.indexOf('<', i);
    const text = xml.slice(i, next < 0 ? xml.length : next);
    if (text.includes('>')) throw new Error(`a bare > at ${i}`);
    stack[stack.length - 1].text += decode(text);
    if (next < 0) break;
    tag.lastIndex = next;
    const match = tag.exec(xml);
    if (!match) throw new Error(`not a tag at ${next}: ${JSON.stringify(xml.slice(next, next + 60))}`);
    const [, closing, name, rest, selfClosing] = match;
    if (closing) {
      const open = stack.pop()!;
      if (open.name !== name || rest.trim() || selfClosing) throw new Error(`</${name}> closes <${open.name}>`);
    } else {
      const element: XmlElement = { name, attributes: attributesOf(rest), children: [], text: '' };
      stack[stack.length - 1].children.push(element);
      if (!selfClosing) stack.push(element);
    }
    i = tag.lastIndex;
  }
  if (stack.length !== 1 || root.children.length !== 1 || root.text.trim() !== '') throw new Error('not one root element');
  return root.children[0];
}

/** Every element named `name` under `element`, depth first. */
export function elements(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...elements(child, name)]);
}

/** xmllint's verdict when it is installed (undefined when it is not). */
export function xmllint(xml: string): { ok: boolean; output: string } | undefined {
  const run = spawnSync('xmllint', ['--noout', '-'], { input: xml, encoding: 'utf8' });
  if (run.error) return undefined;
  return { ok: run.status === 0, output: run.stderr };
}
