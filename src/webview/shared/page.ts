/**
 * What every webview script of ours needs: the channel to the extension, the state VS Code keeps while
 * the panel is hidden, the first data embedded in the page, and elements made without HTML strings
 * (every text goes in as text, never as markup). Runs in the webview, not in Node.
 */

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** acquireVsCodeApi may be called once per page. */
export const host: VsCodeApi = acquireVsCodeApi();

/** The JSON the extension put in #initial-data. */
export function initialData<T>(): T {
  return JSON.parse(document.getElementById('initial-data')?.textContent ?? 'null') as T;
}

/** "{0} of {1}" with its arguments, as vscode.l10n.t formats (the texts come translated from the extension). */
export function format(template: string, ...args: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (match, index: string) => (args[Number(index)] === undefined ? match : String(args[Number(index)])));
}

type Attributes = Record<string, string | number | boolean | undefined>;

export function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  setAttributes(made, attributes);
  made.append(...children);
  return made;
}

export function svgElement<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Array<Node | string>): SVGElementTagNameMap[K] {
  const made = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttributes(made, attributes);
  made.append(...children);
  return made;
}

function setAttributes(target: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    target.setAttribute(name, value === true ? '' : String(value));
  }
}

/** `**bold**` parts of a translated line as <strong>, the rest as text. */
export function withBold(line: string): Node[] {
  return line.split('**').map((part, index) => (index % 2 === 1 ? element('strong', {}, part) : document.createTextNode(part)));
}
