/**
 * The rows the webview holds: those of the current frame that were asked for, by position. It asks the
 * extension for whole blocks around what is on screen (and the block beyond, so that scrolling finds
 * them ready) and forgets the ones far away, so 100,000 rows never sit in the page at once.
 */
import type { TableRow } from '../../views/table/tableProtocol';

export const BLOCK = 100;
/** Rows kept at most; the farthest from the screen go first. */
const KEEP = 3000;

export class RowCache {
  private readonly rows = new Map<number, TableRow>();
  private readonly asked = new Set<number>();
  private generation = 0;

  constructor(private readonly ask: (start: number, count: number, generation: number) => void) {}

  /** A new frame: its first rows, and nothing of the old ones. */
  reset(generation: number, start: number, rows: readonly TableRow[]): void {
    this.generation = generation;
    this.rows.clear();
    this.asked.clear();
    this.add(generation, start, rows);
  }

  /** Rows that came; false when they belong to an older frame. */
  add(generation: number, start: number, rows: readonly TableRow[]): boolean {
    if (generation !== this.generation) return false;
    rows.forEach((row, offset) => this.rows.set(start + offset, row));
    return true;
  }

  get(position: number): TableRow | undefined {
    return this.rows.get(position);
  }

  /** Asks for the blocks of [first, last] and the next one that are neither here nor asked for. */
  want(first: number, last: number, shown: number): void {
    const from = Math.max(0, Math.floor(first / BLOCK));
    const to = Math.min(Math.floor(Math.max(0, shown - 1) / BLOCK), Math.floor(last / BLOCK) + 1);
    for (let block = from; block <= to; block += 1) {
      const start = block * BLOCK;
      if (this.asked.has(block) || this.rows.has(start)) continue;
      this.asked.add(block);
      this.ask(start, BLOCK, this.generation);
    }
    this.forgetFarFrom((first + last) / 2);
  }

  /** Forgets whole blocks, the farthest first, so that a block is either all here or asked again. */
  private forgetFarFrom(middle: number): void {
    if (this.rows.size <= KEEP) return;
    const blocks = [...new Set([...this.rows.keys()].map((position) => Math.floor(position / BLOCK)))];
    blocks.sort((a, b) => Math.abs(b * BLOCK - middle) - Math.abs(a * BLOCK - middle));
    for (const block of blocks) {
      if (this.rows.size <= KEEP) break;
      for (let position = block * BLOCK; position < (block + 1) * BLOCK; position += 1) this.rows.delete(position);
      this.asked.delete(block);
    }
  }
}
