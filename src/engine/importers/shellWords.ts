/**
 * Shell commands as the shell would split them into words, without running anything: bash's quoting
 * (`'...'`, `"..."`, `$'...'`, backslashes, `\` line continuations, `#` comments) and Windows cmd's
 * (`^` escapes and continuations, `"..."` with `\"`, as "Copy as cURL (cmd)" writes it). A shell
 * variable (`$TOKEN`, `${TOKEN}`) is never expanded: it is kept as a reference and named, so the
 * command's author sees which values the command needed. No `vscode` here.
 */

export type ShellDialect = 'bash' | 'cmd';

export interface ShellCommand {
  words: string[];
  /** 0-based lines of the text the command spans. */
  startLine: number;
  endLine: number;
  /** Shell variables the words refer to, each once, in order. */
  variables: string[];
  /** What the command does after its first part (`| jq .`, `> out.json`), when it does. */
  rest?: string;
}

/** What a shell variable becomes in a word: a reference the caller chooses (default `$NAME`). */
export type VariableWriter = (name: string) => string;

const CMD_MARKS = /\^\r?\n|\^"|^\s*curl(?:\.exe)?\s+"[^"]*"\s*\^?\s*$/m;

/** cmd when a line ends with `^` or a word is quoted with `^"`; otherwise bash. */
export function dialectOf(text: string): ShellDialect {
  return CMD_MARKS.test(text) ? 'cmd' : 'bash';
}

/** The commands in `text`, one per line unless continued (or a quote spans lines); comments and blank lines skipped. */
export function shellCommands(text: string, writeVariable: VariableWriter = (name) => `$${name}`, dialect = dialectOf(text)): ShellCommand[] {
  return dialect === 'cmd' ? cmdCommands(text) : bashCommands(text, writeVariable);
}

/** The last line (0-based) of the command that starts on `start`: its continuation lines and quoted line breaks. */
export function commandExtent(lines: readonly string[], start: number): number {
  const text = lines.slice(start).join('\n');
  const [command] = shellCommands(text);
  return start + (command?.endLine ?? 0);
}

interface Scan {
  text: string;
  at: number;
  line: number;
}

const ANSI_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** A `$'...'` string from after its opening quote; the scan ends after the closing quote. */
function ansiString(scan: Scan): string {
  let out = '';
  while (scan.at < scan.text.length && scan.text[scan.at] !== "'") {
    const char = scan.text[scan.at++];
    if (char === '\n') scan.line++;
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = scan.text[scan.at++] ?? '';
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(scan.text.slice(scan.at - 1));
    const unicode = /^[uU]([0-9a-fA-F]{1,8})/.exec(scan.text.slice(scan.at - 1));
    const octal = /^[0-7]{1,3}/.exec(scan.text.slice(scan.at - 1));
    if (hex) {
      out += String.fromCharCode(parseInt(hex[1], 16));
      scan.at += hex[0].length - 1;
    } else if (unicode) {
      out += String.fromCodePoint(Math.min(parseInt(unicode[1], 16), 0x10ffff));
      scan.at += unicode[0].length - 1;
    } else if (octal) {
      out += String.fromCharCode(parseInt(octal[0], 8));
      scan.at += octal[0].length - 1;
    } else out += ANSI_ESCAPES[next] ?? `\\${next}`;
  }
  scan.at++;
  return out;
}

/** `$NAME`, `${NAME}` at the scan (after the `$`); undefined when the `$` is a plain character. */
function variable(scan: Scan): string | undefined {
  const match = /^\{([A-Za-z_]\w*)\}|^([A-Za-z_]\w*)/.exec(scan.text.slice(scan.at));
  if (!match) return undefined;
  scan.at += match[0].length;
  return match[1] ?? match[2];
}

/** A `"..."` string from after its opening quote: `\` escapes only `$`, `` ` ``, `"`, `\` and a line break. */
function doubleQuoted(scan: Scan, onVariable: (name: string) => string): string {
  let out = '';
  while (scan.at < scan.text.length && scan.text[scan.at] !== '"') {
    const char = scan.text[scan.at++];
    if (char === '\n') scan.line++;
    if (char === '\\' && '$`"\\\n'.includes(scan.text[scan.at] ?? '')) {
      const escaped = scan.text[scan.at++];
      if (escaped === '\n') scan.line++;
      else out += escaped;
    } else if (char === '$') {
      const name = variable(scan);
      out += name === undefined ? '$' : onVariable(name);
    } else out += char;
  }
  scan.at++;
  return out;
}

/** Operators that end a word; `&` only alone (`a=1&b=2` in an unquoted URL is not a background job here). */
const OPERATOR = /^(?:\|\||&&|\||;|>>?|<|&(?=[\s]|$))/;

function bashCommands(text: string, writeVariable: VariableWriter): ShellCommand[] {
  const scan: Scan = { text, at: 0, line: 0 };
  const commands: ShellCommand[] = [];
  let command: ShellCommand | undefined;
  let word: string | undefined;
  const onVariable = (name: string) => {
    if (command && !command.variables.includes(name)) command.variables.push(name);
    return writeVariable(name);
  };
  const endWord = () => {
    if (word !== undefined) command!.words.push(word);
    word = undefined;
  };
  const endCommand = () => {
    if (command) endWord();
    if (command && command.words.length > 0) commands.push(command);
    command = undefined;
  };
  while (scan.at < text.length) {
    const char = text[scan.at];
    if (char === '\n') {
      scan.line++;
      scan.at++;
      endCommand();
    } else if (char === '\r' || char === ' ' || char === '\t') {
      if (command) endWord();
      scan.at++;
    } else if (char === '#' && word === undefined) {
      while (scan.at < text.length && text[scan.at] !== '\n') scan.at++;
    } else {
      command ??= { words: [], startLine: scan.line, endLine: scan.line, variables: [] };
      const operator = OPERATOR.exec(text.slice(scan.at));
      if (operator) {
        endWord();
        if (readOperator(scan, operator[0], command)) endCommand();
        continue;
      }
      const part = wordPart(scan, onVariable);
      if (part !== undefined) word = (word ?? '') + part;
      command.endLine = scan.line;
    }
  }
  endCommand();
  return commands;
}

/** Reads an operator; true when it ends the command (`;`, `&&`, `||`). A pipe or redirect keeps the rest of its line as `rest`, to be named. */
function readOperator(scan: Scan, operator: string, command: ShellCommand): boolean {
  scan.at += operator.length;
  if (operator === ';' || operator === '&&' || operator === '||') return true;
  const lineEnd = scan.text.indexOf('\n', scan.at);
  const restEnd = lineEnd < 0 ? scan.text.length : lineEnd;
  command.rest = `${operator} ${scan.text.slice(scan.at, restEnd).trim()}`.trim();
  scan.at = restEnd;
  return false;
}

/** The next piece of a word (a quoted string, an escaped or plain character, a variable); undefined for a line continuation. */
function wordPart(scan: Scan, onVariable: (name: string) => string): string | undefined {
  const { text } = scan;
  const char = text[scan.at++];
  if (char === '\\') {
    // A backslash before a line break continues the line; spaces left between them are a slip of the pen.
    const continuation = /^[ \t]*\r?\n/.exec(text.slice(scan.at));
    if (continuation) {
      scan.at += continuation[0].length;
      scan.line++;
      return undefined;
    }
    return text[scan.at++] ?? '';
  }
  if (char === "'") {
    const close = text.indexOf("'", scan.at);
    const end = close < 0 ? text.length : close;
    const part = text.slice(scan.at, end);
    scan.line += part.split('\n').length - 1;
    scan.at = end + 1;
    return part;
  }
  if (char === '"') return doubleQuoted(scan, onVariable);
  if (char === '$' && text[scan.at] === "'") {
    scan.at++;
    return ansiString(scan);
  }
  if (char === '$' && text[scan.at] === '"') {
    scan.at++;
    return doubleQuoted(scan, onVariable);
  }
  if (char === '$') {
    const name = variable(scan);
    return name === undefined ? '$' : onVariable(name);
  }
  return char;
}

/**
 * cmd: `^` escapes the next character (at a line end, it continues the line); then the program splits
 * its own command line the way the C runtime does: `"` opens and closes quoting, `\"` is a quote,
 * backslashes are literal except before a quote.
 */
function cmdCommands(text: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  const lines = text.split('\n');
  for (let line = 0; line < lines.length; line++) {
    const startLine = line;
    let joined = '';
    for (;;) {
      const current = lines[line].replace(/\r$/, '');
      const continued = /(^|[^^])(\^\^)*\^\s*$/.test(current);
      joined += continued ? current.replace(/\^\s*$/, ' ') : current;
      if (!continued || line + 1 >= lines.length) break;
      line++;
    }
    const unescaped = joined.replace(/\^(.)/g, '$1');
    if (unescaped.trim() === '' || /^\s*(?:rem\s|::|#)/i.test(unescaped)) continue;
    const words = runtimeWords(unescaped);
    if (words.length > 0) commands.push({ words, startLine, endLine: line, variables: [] });
  }
  return commands;
}

/** A Windows command line split as the C runtime splits argv. */
function runtimeWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quoted = false;
  for (let at = 0; at < line.length; at++) {
    const char = line[at];
    if (char === '\\') {
      let count = 0;
      while (line[at] === '\\') {
        count++;
        at++;
      }
      if (line[at] === '"') {
        word = (word ?? '') + '\\'.repeat(Math.floor(count / 2));
        if (count % 2 === 1) word += '"';
        else {
          quoted = !quoted;
          word ??= '';
        }
      } else {
        word = (word ?? '') + '\\'.repeat(count);
        at--;
      }
    } else if (char === '"') {
      if (quoted && line[at + 1] === '"') {
        word = (word ?? '') + '"';
        at++;
      } else {
        quoted = !quoted;
        word ??= '';
      }
    } else if ((char === ' ' || char === '\t') && !quoted) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}
