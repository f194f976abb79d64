/**
 * The order of a table's records by one column. Numbers by value, dates by time, texts in the display
 * language's order (numbers inside texts by value: "RC-9" before "RC-10"); a column mixing kinds keeps
 * each kind together (numbers, dates, texts, booleans, nested values), and empty cells (null, nothing,
 * "") go last in either direction. Equal values keep the answer's order. No `vscode` here.
 */
import { isoTime } from './tableCells';

export type SortDirection = 'ascending' | 'descending';

const RANK = { number: 0, date: 1, text: 2, boolean: 3, json: 4, empty: 5 } as const;

interface Keys {
  rank: Uint8Array;
  numbers: Float64Array;
  texts: string[];
}

function keysOf(values: readonly unknown[]): Keys {
  const rank = new Uint8Array(values.length);
  const numbers = new Float64Array(values.length);
  const texts: string[] = new Array(values.length);
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (typeof value === 'number') {
      rank[index] = RANK.number;
      numbers[index] = value;
    } else if (typeof value === 'string') {
      const time = value === '' ? undefined : isoTime(value);
      rank[index] = value === '' ? RANK.empty : time ? RANK.date : RANK.text;
      if (time) numbers[index] = time.at;
      else texts[index] = value;
    } else if (typeof value === 'boolean') {
      rank[index] = RANK.boolean;
      numbers[index] = value ? 1 : 0;
    } else if (value === null || value === undefined) {
      rank[index] = RANK.empty;
    } else {
      rank[index] = RANK.json;
      texts[index] = JSON.stringify(value) ?? '';
    }
  }
  return { rank, numbers, texts };
}

/** The record indexes `order` sorted by `values[index]` (one value per record). */
export function sortedOrder(order: readonly number[], values: readonly unknown[], direction: SortDirection, locale: string): number[] {
  const keys = keysOf(values);
  const collator = new Intl.Collator(Intl.Collator.supportedLocalesOf([locale]).length > 0 ? locale : 'en', { numeric: true, sensitivity: 'base' });
  const sign = direction === 'ascending' ? 1 : -1;
  const compare = (a: number, b: number): number => {
    const rankA = keys.rank[a];
    const rankB = keys.rank[b];
    if (rankA !== rankB) return rankA === RANK.empty ? 1 : rankB === RANK.empty ? -1 : sign * (rankA - rankB);
    if (rankA === RANK.empty) return 0;
    if (rankA === RANK.text || rankA === RANK.json) return sign * collator.compare(keys.texts[a], keys.texts[b]);
    return sign * (keys.numbers[a] - keys.numbers[b]);
  };
  // Array.prototype.sort is stable: equal values keep the order they came in.
  return [...order].sort(compare);
}
