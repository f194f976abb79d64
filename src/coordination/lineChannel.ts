import type { Socket } from 'node:net';
import { MAX_LINE_BYTES } from './protocol';

/**
 * Newline-delimited JSON over a local socket. A line that is too long, or one `onLine` refuses,
 * closes the connection: the other side is not speaking our protocol.
 */
export class LineChannel {
  private buffer = '';
  private closed = false;

  constructor(
    private readonly socket: Socket,
    onLine: (line: string) => boolean,
    onClose: (reason: string) => void,
  ) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (this.closed) return;
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        if (!onLine(line)) return this.close('a message that is not part of the protocol');
        if (this.closed) return;
      }
      if (this.buffer.length > MAX_LINE_BYTES) this.close('a message that is too long');
    });
    let reported = false;
    const report = (reason: string) => {
      this.closed = true;
      if (!reported) {
        reported = true;
        onClose(reason);
      }
    };
    socket.on('error', (error) => report(error.message));
    socket.on('close', () => report('closed'));
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  send(message: object): void {
    if (!this.closed) this.socket.write(`${JSON.stringify(message)}\n`);
  }

  close(reason = 'closed'): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy(new Error(reason));
  }
}
