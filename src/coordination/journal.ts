import { closeSync, existsSync, openSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** A call as the journal left it: granted, and once it ended and was logged, when (this process's monotonic ms). */
export interface JournaledCall {
  window: string;
  id: number;
  loggedAt?: number;
}

/** Records per file before the broker starts a new one (the previous one is kept, so the last minute is always there). */
const RECORDS_PER_FILE = 4096;
const LINE = /^([ge]) ([0-9a-f]{16,128}) (\d{1,15}) (\d+(?:\.\d+)?)(?: ([01]))?$/;

/** Epoch ms with sub-millisecond precision, comparable between processes of one machine. */
const epochMs = () => performance.timeOrigin + performance.now();

/**
 * The broker's write-ahead record of its grants and of its calls' ends, in the user-only
 * directory: `g <window> <id> <epoch ms>` before a slot is handed out, `e <window> <id> <epoch ms>
 * <logged>` when a call ends. Each record is written with one synchronous write(2) before anyone can
 * act on it, so what a broker killed with kill -9 had granted is in the file (the page cache
 * outlives the process) for the next broker to read. A socket cannot promise that: bytes the dead
 * broker wrote are lost if the reader's own write fails first (EPIPE destroys the socket).
 */
export class Journal {
  private fd: number;
  private records = 0;

  constructor(private readonly path: string) {
    this.fd = openSync(path, 'a', 0o600);
  }

  granted(window: string, id: number): void {
    this.append(`g ${window} ${id} ${epochMs().toFixed(3)}\n`);
  }

  ended(window: string, id: number, logged: boolean): void {
    this.append(`e ${window} ${id} ${epochMs().toFixed(3)} ${logged ? 1 : 0}\n`);
  }

  close(): void {
    closeSync(this.fd);
  }

  private append(line: string): void {
    writeSync(this.fd, line);
    if (++this.records < RECORDS_PER_FILE) return;
    closeSync(this.fd);
    renameSync(this.path, `${this.path}.1`);
    this.fd = openSync(this.path, 'a', 0o600);
    this.records = 0;
  }

  /** Deletes the journals in `dir` nobody wrote to for `idleMs` (applications no longer configured, sandboxes of past test runs). */
  static sweep(dir: string, idleMs: number): void {
    const before = Date.now() - idleMs;
    for (const name of readdirSync(dir)) {
      if (!/\.journal(\.1)?$/.test(name)) continue;
      try {
        if (statSync(join(dir, name)).mtimeMs < before) unlinkSync(join(dir, name));
      } catch {
        // another broker swept it first
      }
    }
  }

  /**
   * The calls of the journal at `path` (and its previous file) that can still matter: in flight, or
   * logged less than `horizonMs` ago, with their times on the caller's monotonic clock `nowMs`.
   */
  static read(path: string, nowMs: number, horizonMs: number): JournaledCall[] {
    const calls = new Map<string, JournaledCall>();
    const offset = nowMs - epochMs();
    for (const file of [`${path}.1`, path]) {
      if (!existsSync(file)) continue;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const match = LINE.exec(line);
        if (!match) continue;
        const [, kind, window, id, at, logged] = match;
        const key = `${window}:${id}`;
        if (kind === 'g') calls.set(key, { window, id: Number(id) });
        else if (logged === '1') calls.set(key, { window, id: Number(id), loggedAt: Number(at) + offset });
        else calls.delete(key);
      }
    }
    return [...calls.values()].filter((call) => call.loggedAt === undefined || call.loggedAt > nowMs - horizonMs);
  }
}
