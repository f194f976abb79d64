/**
 * The columns of a list of records: one per key, in the order the keys are first met, a nested object
 * spread one level into `key.sub` columns (kept together after their key's own column, whichever record
 * brought them), and a `(value)` column for items that are not objects. Every record is looked at, since
 * a list's records need not share a shape. No `vscode` here.
 */

/** Where a column's value lies in a record: [] the item itself, [key], or [key, sub]. */
export type ColumnPath = readonly [] | readonly [string] | readonly [string, string];

export interface ColumnDef {
  /** Its number in the table (stable: the messages of the webview name columns by it). */
  index: number;
  path: ColumnPath;
  /** How many records hold a number here, and how many hold anything but null or nothing. */
  numbers: number;
  filled: number;
}

export interface DiscoveredColumns {
  columns: ColumnDef[];
  /** Items of the list that are not objects (shown in the `(value)` column). */
  nonObjects: number;
  /** Keys left out because the table has MAX_COLUMNS already. */
  leftOut: number;
}

/** Beyond this many columns, further keys are left out (and the table says how many). */
export const MAX_COLUMNS = 1000;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasKeys(value: Record<string, unknown>): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

function hasKeysIn(value: object): boolean {
  for (const _key in value) return true;
  return false;
}

interface KeyColumns {
  /** When the key was first met: its columns' place. */
  order: number;
  /** The key's own column (its value is not an object, or an empty one). */
  own?: ColumnDef;
  /** The columns of the object's keys. */
  subs?: Map<string, ColumnDef>;
  /** The sub-keys of the last object met here, in order, and their columns (see `Recent`). */
  recentSubs?: Recent<ColumnDef | undefined>;
}

/**
 * The keys of the last record met, in order, and what each led to. The records of a list mostly share
 * their keys in one order: a key in the same place as before is then found by one comparison instead of
 * a map look-up, which is most of the time a list of 100,000 records takes.
 */
interface Recent<T> {
  keys: string[];
  found: T[];
}

class ColumnCollector {
  readonly columns: ColumnDef[] = [];
  private readonly byKey = new Map<string, KeyColumns>();
  private items: ColumnDef | undefined;
  private itemsOrder: number | undefined;
  private readonly leftOutKeys = new Set<string>();
  private readonly recent: Recent<KeyColumns> = { keys: [], found: [] };
  /** Whether for-in also meets keys an object inherits (someone made one enumerable on Object.prototype). */
  private readonly inherited = hasKeysIn({});
  nonObjects = 0;

  constructor(private readonly maxColumns: number) {}

  get leftOut(): number {
    return this.leftOutKeys.size;
  }

  add(record: unknown): void {
    if (!isPlainObject(record)) {
      this.nonObjects += 1;
      this.itemsOrder ??= this.byKey.size;
      this.items ??= this.column([], '');
      if (this.items) count(this.items, record);
      return;
    }
    // JSON.parse makes plain objects: their own enumerable keys are all there is. for-in walks them
    // without making an array per record (and inherited ones only if something added them to Object.prototype).
    let place = 0;
    for (const key in record) {
      if (this.inherited && !Object.hasOwn(record, key)) continue;
      const known = this.recent.keys[place] === key ? this.recent.found[place] : this.keyColumns(key, place);
      place += 1;
      const value = record[key];
      if (!isPlainObject(value) || !hasKeys(value)) {
        known.own ??= this.column([key], key);
        if (known.own) count(known.own, value);
        continue;
      }
      known.subs ??= new Map();
      known.recentSubs ??= { keys: [], found: [] };
      let subPlace = 0;
      for (const sub in value) {
        if (this.inherited && !Object.hasOwn(value, sub)) continue;
        const column = known.recentSubs.keys[subPlace] === sub ? known.recentSubs.found[subPlace] : this.subColumn(known, key, sub, subPlace);
        subPlace += 1;
        if (column) count(column, value[sub]);
      }
    }
  }

  private keyColumns(key: string, place: number): KeyColumns {
    let known = this.byKey.get(key);
    if (!known) this.byKey.set(key, (known = { order: this.byKey.size }));
    this.recent.keys[place] = key;
    this.recent.found[place] = known;
    return known;
  }

  /** The column of `key.sub` (undefined when left out), remembered in the key's recent sub-keys. */
  private subColumn(known: KeyColumns, key: string, sub: string, place: number): ColumnDef | undefined {
    let column = known.subs!.get(sub);
    if (!column) {
      column = this.column([key, sub], `${key}\u0000${sub}`);
      if (column) known.subs!.set(sub, column);
    }
    known.recentSubs!.keys[place] = sub;
    known.recentSubs!.found[place] = column;
    return column;
  }

  /** The columns grouped by key in the order the keys came, each numbered by its place. */
  ordered(): ColumnDef[] {
    const groups: Array<{ order: number; columns: ColumnDef[] }> = [...this.byKey.values()].map((known) => ({
      order: known.order,
      columns: [...(known.own ? [known.own] : []), ...(known.subs ? [...known.subs.values()] : [])],
    }));
    // The items that are not objects come where the first of them was met (after the keys met before).
    if (this.items) groups.push({ order: (this.itemsOrder ?? 0) - 0.5, columns: [this.items] });
    const columns = groups.sort((a, b) => a.order - b.order).flatMap((group) => group.columns);
    return columns.map((column, index) => ({ ...column, index }));
  }

  private column(path: ColumnPath, id: string): ColumnDef | undefined {
    if (this.columns.length >= this.maxColumns) {
      this.leftOutKeys.add(id);
      return undefined;
    }
    const column: ColumnDef = { index: this.columns.length, path, numbers: 0, filled: 0 };
    this.columns.push(column);
    return column;
  }
}

function count(column: ColumnDef, value: unknown): void {
  if (typeof value === 'number') column.numbers += 1;
  if (value !== null && value !== undefined) column.filled += 1;
}

export function discoverColumns(records: readonly unknown[], maxColumns = MAX_COLUMNS): DiscoveredColumns {
  const collector = new ColumnCollector(maxColumns);
  for (const record of records) collector.add(record);
  return { columns: collector.ordered(), nonObjects: collector.nonObjects, leftOut: collector.leftOut };
}

/** The value of a column in a record; undefined when the record has nothing there. */
export function valueAt(record: unknown, path: ColumnPath): unknown {
  if (path.length === 0) return isPlainObject(record) ? undefined : record;
  if (!isPlainObject(record) || !Object.hasOwn(record, path[0])) return undefined;
  const value = record[path[0]];
  // An object with keys is in its key.sub columns: its key's own column is for the records where it is not one.
  if (path.length === 1) return isPlainObject(value) && Object.keys(value).length > 0 ? undefined : value;
  return isPlainObject(value) && Object.hasOwn(value, path[1]) ? value[path[1]] : undefined;
}

/** A column's heading: `key`, `key.sub`, or the label given for the items themselves. */
export function columnLabel(path: ColumnPath, valueLabel: string): string {
  return path.length === 0 ? valueLabel : path.join('.');
}

/** Most of what the column holds is numbers: it is aligned right. */
export function isNumeric(column: ColumnDef): boolean {
  return column.numbers > 0 && column.numbers >= column.filled * 0.9;
}
