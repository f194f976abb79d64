/**
 * Asking the person at the terminal for a secret: the question on stderr, the answer typed without
 * echo (raw mode), Enter to finish, Backspace to correct, Ctrl+C to stop the run. Only when standard
 * input is a terminal; a run in CI never waits for an answer.
 */

export class AnswerInterrupted extends Error {}

export interface TerminalInput {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export interface TerminalOutput {
  write(text: string): unknown;
}

/** The hidden answer (trimmed); '' when the person pressed Enter alone. */
export function askHidden(question: string, input: TerminalInput, output: TerminalOutput): Promise<string> {
  output.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    const wasRaw = input.isRaw === true;
    const finish = (then: () => void) => {
      input.off('data', onData);
      input.setRawMode?.(wasRaw);
      input.pause();
      output.write('\n');
      then();
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === '\r' || char === '\n') return finish(() => resolve(value.trim()));
        if (char === '\u0003') return finish(() => reject(new AnswerInterrupted()));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    input.setRawMode?.(true);
    input.on('data', onData);
    input.resume();
  });
}
