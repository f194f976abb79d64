/**
 * JSON with comments and trailing commas, as VS Code writes `.vscode/settings.json`: comments and
 * trailing commas are blanked out (strings left alone) and the rest goes to JSON.parse, so an error
 * keeps its position.
 */
export function parseJsonc(text: string): unknown {
  return JSON.parse(withoutTrailingCommas(withoutComments(text.replace(/^\uFEFF/, ''))));
}

function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else {
      out += char;
      i++;
    }
  }
  return out;
}

/** The index just after the string that starts at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}

function withoutTrailingCommas(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (text[i] === ',' && /^\s*[}\]]/.test(text.slice(i + 1, i + 200))) {
      out += ' ';
    } else {
      out += text[i];
    }
    i++;
  }
  return out;
}
