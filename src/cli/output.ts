/** Where the runner writes: stdout and stderr, every text through redaction first (nothing secret leaves). */
import { redact } from '../common/redact';

export interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Output {
  /** Results and the summary (stdout). */
  out(line: string): void;
  /** Problems, prompts and progress (stderr). */
  err(line: string): void;
  /** The updating line on a terminal; '' clears it. */
  status(line: string): void;
  readonly interactive: boolean;
}

export function streamOutput(stdout: Stream, stderr: Stream): Output {
  const interactive = stderr.isTTY === true;
  let shown = false;
  const clear = () => {
    if (shown) stderr.write('\r\x1b[K');
    shown = false;
  };
  return {
    interactive,
    out(line) {
      clear();
      stdout.write(`${redact(line)}\n`);
    },
    err(line) {
      clear();
      stderr.write(`${redact(line)}\n`);
    },
    status(line) {
      if (!interactive) return;
      clear();
      if (!line) return;
      const width = Math.max(20, (stderr.columns || 80) - 1);
      const text = redact(line);
      stderr.write(text.length > width ? `${text.slice(0, width - 1)}…` : text);
      shown = true;
    },
  };
}
