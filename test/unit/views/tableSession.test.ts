import * as assert from 'node:assert/strict';
import { TableModel } from '../../../src/views/table/tableModel';
import { MAX_ROWS_PER_REQUEST, parseTableRequest, type TableUpdate } from '../../../src/views/table/tableProtocol';
import { keptOrder, TableSession, type TableActions } from '../../../src/views/table/tableSession';

function session(records: unknown[], actions: Partial<TableActions> = {}) {
  const posted: TableUpdate[] = [];
  const copied: string[] = [];
  const opened: Array<[number, unknown]> = [];
  const model = new TableModel({ records, listKey: '' }, { locale: 'en' });
  const table = new TableSession(
    model,
    (update) => posted.push(update),
    {
      chooseColumns: async () => undefined,
      copy: async (text) => void copied.push(text),
      openRow: async (id, record) => void opened.push([id, record]),
      ...actions,
    },
    'en',
  );
  return { table, posted, copied, opened, model };
}

const records = [{ id: 3, nome: 'Verdi' }, { id: 1, nome: 'Rossi' }, { id: 2, nome: 'Bianchi' }];

describe('table session', () => {
  it('sends headings, state and the first rows in a frame, and a new generation after each change', async () => {
    const { table, posted } = session(records);
    const first = table.frame();
    assert.equal(first.generation, 0);
    assert.deepEqual(first.columns.map((column) => column.label), ['id', 'nome']);
    assert.equal(first.rows.length, 3);
    await table.handle({ type: 'sort', column: 0, direction: 'ascending' });
    const frame = posted.at(-1);
    assert.ok(frame?.type === 'frame');
    assert.equal(frame.frame.generation, 1);
    assert.deepEqual(frame.frame.sort, { column: 0, direction: 'ascending' });
    assert.deepEqual(frame.frame.rows.map((row) => row.id), [1, 2, 0]);
    await table.handle({ type: 'filter', text: 'ss' });
    const filtered = posted.at(-1);
    assert.ok(filtered?.type === 'frame');
    assert.equal(filtered.frame.shown, 1);
    assert.equal(filtered.frame.generation, 2);
    assert.deepEqual([filtered.frame.shownText, filtered.frame.totalText], ['1', '3']);
  });

  it('writes the row counts in the display language, so that the page needs no Intl data for its first screen', () => {
    const many = Array.from({ length: 12_345 }, (_, id) => ({ id }));
    const italian = new TableSession(new TableModel({ records: many, listKey: '' }, { locale: 'it' }), () => undefined, { chooseColumns: async () => undefined, copy: async () => undefined, openRow: async () => undefined }, 'it');
    assert.deepEqual([italian.frame().totalText, italian.frame().shownText], ['12.345', '12.345']);
    assert.equal(session(many).table.frame().totalText, '12,345');
  });

  it('answers rows only for the current generation (a reply to an old one would draw the wrong rows)', async () => {
    const { table, posted } = session(records);
    await table.handle({ type: 'rows', start: 1, count: 5, generation: 0 });
    assert.deepEqual(posted.at(-1), { type: 'rows', generation: 0, start: 1, rows: table.frame().rows.slice(1) });
    await table.handle({ type: 'move', column: 1, to: 0 });
    const before = posted.length;
    await table.handle({ type: 'rows', start: 0, count: 5, generation: 0 });
    assert.equal(posted.length, before, 'nothing sent for the old generation');
  });

  it('copies the positions of the current generation, and says when the table changed meanwhile', async () => {
    const { table, posted, copied } = session(records);
    await table.handle({ type: 'sort', column: 1, direction: 'ascending' });
    await table.handle({ type: 'copy', format: 'csv', rows: [0, 2], generation: 1 });
    assert.deepEqual(copied, ['id,nome\r\n2,Bianchi\r\n3,Verdi\r\n']);
    assert.deepEqual(posted.at(-1), { type: 'status', text: 'Copied 2 rows as CSV.' });
    await table.handle({ type: 'copy', format: 'tsv', generation: 1 });
    assert.equal(copied[1], 'id\tnome\n2\tBianchi\n1\tRossi\n3\tVerdi\n');
    await table.handle({ type: 'copy', format: 'csv', rows: [0], generation: 0 });
    assert.equal(copied.length, 2);
    assert.deepEqual(posted.at(-1), { type: 'status', text: 'The table changed meanwhile: select the rows again.' });
  });

  it('opens a record as JSON by its index, and nothing for an index out of the list', async () => {
    const { table, opened } = session(records);
    await table.handle({ type: 'openRow', id: 2 });
    await table.handle({ type: 'openRow', id: 9 });
    assert.deepEqual(opened, [[2, records[2]]]);
  });

  it('shows the columns the user picked, those shown before in their order, and refuses none', async () => {
    assert.deepEqual(keptOrder([3, 0, 1], [1, 5, 3, 2]), [3, 1, 2, 5]);
    let pick: number[] | undefined = [1];
    const { table, posted } = session([{ a: 1, b: 2, c: 3 }], { chooseColumns: async () => pick });
    await table.handle({ type: 'chooseColumns' });
    const frame = posted.at(-1);
    assert.ok(frame?.type === 'frame');
    assert.deepEqual(frame.frame.columns.map((column) => column.label), ['b']);
    pick = [];
    await table.handle({ type: 'chooseColumns' });
    assert.deepEqual(posted.at(-1), { type: 'status', text: 'A table shows at least one column: the columns stay as they were.' });
    pick = undefined;
    const count = posted.length;
    await table.handle({ type: 'chooseColumns' });
    assert.equal(posted.length, count, 'a dismissed picker changes nothing');
  });

  describe('messages from the webview', () => {
    it('takes each request of the protocol', () => {
      for (const request of [
        { type: 'ready' },
        { type: 'rows', start: 0, count: MAX_ROWS_PER_REQUEST, generation: 3 },
        { type: 'sort', column: 2, direction: 'descending' },
        { type: 'sort', column: 2 },
        { type: 'filter', text: 'rossi' },
        { type: 'move', column: 1, to: 0 },
        { type: 'chooseColumns' },
        { type: 'copy', format: 'tsv', rows: [1, 2], generation: 0 },
        { type: 'copy', format: 'csv', generation: 0 },
        { type: 'openRow', id: 7 },
      ]) {
        assert.deepEqual(parseTableRequest(request), request);
      }
    });

    it('drops anything else: unknown types, extra keys, wrong kinds, numbers out of range', () => {
      for (const message of [
        undefined,
        null,
        'ready',
        [],
        { type: 'eval', code: '1' },
        { type: 'ready', extra: 1 },
        { type: 'rows', start: -1, count: 10, generation: 0 },
        { type: 'rows', start: 0, count: MAX_ROWS_PER_REQUEST + 1, generation: 0 },
        { type: 'rows', start: 0.5, count: 10, generation: 0 },
        { type: 'sort', column: '1' },
        { type: 'sort', column: 1, direction: 'up' },
        { type: 'filter', text: 'x'.repeat(1001) },
        { type: 'filter', text: 5 },
        { type: 'copy', format: 'xlsx', generation: 0 },
        { type: 'copy', format: 'csv' },
        { type: 'copy', format: 'csv', rows: [1, 'a'], generation: 0 },
        { type: 'openRow', id: Number.MAX_SAFE_INTEGER + 2 },
        { type: '__proto__' },
        { type: 'toString' },
      ]) {
        assert.equal(parseTableRequest(message), undefined, JSON.stringify(message));
      }
    });
  });
});
