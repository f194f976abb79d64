import * as assert from 'node:assert/strict';
import { quoteField } from '../../../src/views/table/tableCells';
import { columnLabel, discoverColumns, MAX_COLUMNS } from '../../../src/views/table/tableColumns';
import { INITIAL_COLUMNS, TableModel, tableSourceOf, type TableSource } from '../../../src/views/table/tableModel';

const model = (records: unknown[], listKey = '', locale = 'en') => new TableModel({ records, listKey }, { locale });
const texts = (table: TableModel, start = 0, count = 100) => table.rows(start, count).map((row) => row.cells.map((cell) => cell.text));
const labels = (table: TableModel) => table.columnViews().map((column) => column.label);
const columnOf = (table: TableModel, label: string) => table.columnViews('all').find((column) => column.label === label)!.index;

describe('table model', () => {
  describe('the list of an answer', () => {
    it('takes the body when it is a list, else its largest list', () => {
      const page = { pagina: 1, tags: ['a', 'b', 'c'], elementi: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] };
      assert.deepEqual(tableSourceOf({ json: [{ a: 1 }], bodyText: '' }), { records: [{ a: 1 }], listKey: '' });
      const source = tableSourceOf({ json: page, bodyText: '' }) as TableSource;
      assert.equal(source.listKey, 'elementi');
      assert.equal(source.records.length, 4);
    });

    it('reads a body the client did not parse (no JSON content type), and names what is not JSON or holds no list', () => {
      assert.deepEqual(tableSourceOf({ bodyText: '[{"a":1}]' }), { records: [{ a: 1 }], listKey: '' });
      assert.deepEqual(tableSourceOf({ bodyText: '<html>oops</html>' }), { problem: 'notJson' });
      assert.deepEqual(tableSourceOf({ bodyText: '' }), { problem: 'notJson' });
      assert.deepEqual(tableSourceOf({ json: { total: 3 }, bodyText: '{"total":3}' }), { problem: 'noList' });
      assert.deepEqual(tableSourceOf({ json: 'text', bodyText: '"text"' }), { problem: 'noList' });
    });

    it('says what it shows: the list, its size, and what it left out', () => {
      const table = model([{ a: 1 }, 7, 'x'], 'elementi');
      assert.deepEqual(table.notices(), ['The list "elementi" of the answer (its largest): 3 items.', '2 items are not objects: they are in the column "(value)".']);
      assert.deepEqual(model([{ a: 1 }]).notices(), ['The answer is a list of 1 item.']);
      assert.deepEqual(model([]).notices(), ['The answer is a list of 0 items.']);
    });
  });

  describe('columns', () => {
    it('has one column per key in the order first met, nested objects one level deep as a.b', () => {
      const table = model([
        { id: 1, sede: { comune: 'Milano', cap: '20121', geo: { lat: 45 } }, nome: 'Rossi' },
        { id: 2, extra: true, sede: { provincia: 'MI' } },
      ]);
      // sede.provincia, met in the second record, joins the other sede columns.
      assert.deepEqual(labels(table), ['id', 'sede.comune', 'sede.cap', 'sede.geo', 'sede.provincia', 'nome', 'extra']);
      assert.deepEqual(texts(table), [
        ['1', 'Milano', '20121', '{"lat":45}', '', 'Rossi', ''],
        ['2', '', '', '', 'MI', '', 'true'],
      ]);
      assert.deepEqual(table.rows(1, 1)[0].cells.map((cell) => cell.kind), ['number', 'missing', 'missing', 'missing', 'text', 'missing', 'boolean']);
    });

    it('keeps working with mixed shapes: a key that is an object in one record and a value in another, items that are no objects', () => {
      const table = model([42, { sede: { comune: 'Milano' } }, { sede: 'Torino' }, null, { sede: {} }]);
      assert.deepEqual(labels(table), ['(value)', 'sede', 'sede.comune']);
      assert.deepEqual(texts(table), [
        ['42', '', ''],
        ['', '', 'Milano'],
        ['', 'Torino', ''],
        ['null', '', ''],
        ['', '{}', ''],
      ]);
    });

    it('counts each record by its own keys when records share keys, swap their order, or turn a key into an object', () => {
      const found = discoverColumns([
        { a: 1, b: { x: 1, y: 2 }, c: 'p' },
        { a: 2, b: { x: 3, y: 4 }, c: 'q' },
        { c: 'r', a: 'text', b: { y: 5, z: 6 } },
        { a: { deep: 1 }, b: 7, c: null },
        { a: 3, b: { x: 8, y: 9 }, c: 's' },
      ]);
      assert.deepEqual(
        found.columns.map((column) => [columnLabel(column.path, '(value)'), column.numbers, column.filled]),
        [['a', 3, 4], ['a.deep', 1, 1], ['b', 1, 1], ['b.x', 3, 3], ['b.y', 4, 4], ['b.z', 1, 1], ['c', 0, 4]],
      );
      const capped = discoverColumns([{ a: 1, b: 2, c: 3 }, { a: 4, b: 5, c: 6 }, { c: 7, d: 8 }], 2);
      assert.deepEqual(capped.columns.map((column) => [columnLabel(column.path, ''), column.filled]), [['a', 2], ['b', 2]]);
      assert.equal(capped.leftOut, 2);
    });

    it('finds only the records\' own keys when something made a key of Object.prototype enumerable', () => {
      Object.defineProperty(Object.prototype, 'inheritedKey', { value: 1, enumerable: true, configurable: true });
      try {
        assert.deepEqual(discoverColumns([{ a: 1, b: { x: 1 } }, { a: 2, b: { x: 2 } }]).columns.map((column) => column.path.join('.')), ['a', 'b.x']);
      } finally {
        delete (Object.prototype as Record<string, unknown>).inheritedKey;
      }
    });

    it('right-aligns the columns that hold numbers', () => {
      const table = model([{ n: 1, s: 'a', mixed: 1 }, { n: 2.5, s: 'b', mixed: 'x' }, { n: null, s: 'c' }]);
      assert.deepEqual(table.columnViews().map((column) => [column.label, column.numeric]), [['n', true], ['s', false], ['mixed', false]]);
    });

    it('shows the first 50 of 500 columns, lets the user choose the others, and stops at 1000', () => {
      const wide = Array.from({ length: 3 }, (_, row) => Object.fromEntries(Array.from({ length: 500 }, (_, column) => [`k${column}`, row * 1000 + column])));
      const table = model(wide);
      assert.equal(table.columns.length, 500);
      assert.equal(table.columnViews().length, INITIAL_COLUMNS);
      assert.match(table.notices().join('\n'), /50 of 500 columns are shown: choose columns to see the others\./);
      assert.equal(table.rows(0, 1)[0].cells.length, INITIAL_COLUMNS);
      table.setShownColumns(table.columnViews('all').map((column) => column.index));
      assert.equal(table.rows(2, 1)[0].cells[499].text, '2499');
      const wider = discoverColumns([Object.fromEntries(Array.from({ length: MAX_COLUMNS + 20 }, (_, column) => [`k${column}`, column]))]);
      assert.equal(wider.columns.length, MAX_COLUMNS);
      assert.equal(wider.leftOut, 20);
    });

    it('reorders and chooses shown columns, keeping at least one', () => {
      const table = model([{ a: 1, b: 2, c: 3 }]);
      table.moveColumn(columnOf(table, 'c'), 0);
      assert.deepEqual(labels(table), ['c', 'a', 'b']);
      table.moveColumn(columnOf(table, 'c'), 99);
      assert.deepEqual(labels(table), ['a', 'b', 'c']);
      table.setShownColumns([2, 0, 7, 2]);
      assert.deepEqual(labels(table), ['c', 'a']);
      table.setShownColumns([]);
      assert.deepEqual(labels(table), ['c', 'a']);
      assert.deepEqual(texts(table), [['3', '1']]);
    });
  });

  describe('cells', () => {
    it('makes empties visible and different: null, an empty text, no value', () => {
      const table = model([{ a: null, b: '', c: 1 }, { c: 2 }]);
      assert.deepEqual(table.rows(0, 2).map((row) => row.cells.map((cell) => `${cell.kind}:${cell.text}`)), [
        ['null:null', 'empty:""', 'number:1'],
        ['missing:', 'missing:', 'number:2'],
      ]);
    });

    it('writes dates readably in the display language, the value itself in the tooltip', () => {
      const table = model([{ d: '2024-03-05', t: '2024-03-05T10:20:30Z', notADate: '2024-13-45x' }], '', 'it');
      const [date, time, other] = table.rows(0, 1)[0].cells;
      assert.equal(date.kind, 'date');
      assert.equal(date.text, '5 mar 2024');
      assert.equal(date.title, '2024-03-05');
      assert.equal(time.kind, 'date');
      assert.match(time.text, /^5 mar 2024, \d{2}:20:30$/);
      assert.equal(other.kind, 'text');
    });

    it('cuts a huge text to 200 characters, the start of it in the tooltip, and one line per cell', () => {
      const huge = 'x'.repeat(5_000_000);
      const table = model([{ huge, lines: 'one\ntwo' }]);
      const [cell, lines] = table.rows(0, 1)[0].cells;
      assert.equal(cell.text.length, 201);
      assert.ok(cell.text.endsWith('…'));
      assert.equal(cell.title?.length, 2001);
      assert.equal(lines.text, 'one↵two');
      assert.equal(lines.title, 'one\ntwo');
      assert.equal(table.copy('csv').text, `huge,lines\r\n${huge},"one\ntwo"\r\n`);
    });

    it('numbers in the display language, without grouping', () => {
      assert.deepEqual(texts(model([{ n: 1234567.5 }], '', 'it')), [['1234567,5']]);
      assert.deepEqual(texts(model([{ n: 1234567.5 }], '', 'en')), [['1234567.5']]);
    });

    it('masks the tokens it is told of in every text it shows, before cutting', () => {
      const jwt = `eyJhbGciOiJSUzI1NiJ9.${'a'.repeat(300)}.sig`;
      const table = new TableModel({ records: [{ token: jwt, note: 'ok' }], listKey: '' }, { locale: 'en', mask: (text) => text.replace(/eyJ[\w.-]+/g, '[redacted-jwt]') });
      assert.deepEqual(texts(table), [['[redacted-jwt]', 'ok']]);
    });
  });

  describe('sort', () => {
    it('sorts numbers by value, texts in the display language with numbers inside by value, dates by time', () => {
      const table = model([
        { n: 10, s: 'RC-10', d: '2024-01-10' },
        { n: 9, s: 'rc-9', d: '2023-12-31' },
        { n: -1, s: 'Ávila', d: '2024-01-02T00:00:00Z' },
      ]);
      table.setSort(columnOf(table, 'n'), 'ascending');
      assert.deepEqual(texts(table).map((row) => row[0]), ['-1', '9', '10']);
      table.setSort(columnOf(table, 's'), 'ascending');
      assert.deepEqual(texts(table).map((row) => row[1]), ['Ávila', 'rc-9', 'RC-10']);
      table.setSort(columnOf(table, 'd'), 'descending');
      assert.deepEqual(texts(table).map((row) => row[0]), ['10', '-1', '9']);
      table.setSort(columnOf(table, 'd'), undefined);
      assert.deepEqual(texts(table).map((row) => row[0]), ['10', '9', '-1']);
    });

    it('puts empties last both ways, keeps kinds together, and keeps the answer\'s order among equals', () => {
      const records = [{ v: 2, i: 0 }, { v: null, i: 1 }, { v: 'b', i: 2 }, { i: 3 }, { v: 2, i: 4 }, { v: '', i: 5 }, { v: 1, i: 6 }];
      const table = model(records);
      const order = () => table.rows(0, 10).map((row) => row.id);
      table.setSort(columnOf(table, 'v'), 'ascending');
      assert.deepEqual(order(), [6, 0, 4, 2, 1, 3, 5]);
      table.setSort(columnOf(table, 'v'), 'descending');
      assert.deepEqual(order(), [2, 0, 4, 6, 1, 3, 5]);
    });
  });

  describe('filter', () => {
    it('keeps the rows holding the text in a shown column, case ignored, as the answer holds the value', () => {
      const table = model([{ nome: 'Rossi', citta: 'Milano', n: 120 }, { nome: 'Bianchi', citta: 'Torino', n: 7 }, { nome: 'Verdi', citta: 'MILANO', n: 12 }]);
      table.setFilter('milano');
      assert.deepEqual(texts(table).map((row) => row[0]), ['Rossi', 'Verdi']);
      table.setFilter('milano ');
      assert.equal(table.shown, 2, 'spaces around the text are ignored');
      table.setFilter('12');
      assert.deepEqual(texts(table).map((row) => row[0]), ['Rossi', 'Verdi']);
      table.setShownColumns([0, 1]);
      assert.equal(table.shown, 0, 'a hidden column is not searched');
      table.setFilter('');
      assert.equal(table.shown, 3);
    });

    it('narrows as the text grows and widens again as it shrinks, in the sort\'s order', () => {
      const table = model(['alpha', 'alps', 'beta', 'alpine'].map((name, id) => ({ id, name })));
      table.setSort(columnOf(table, 'name'), 'descending');
      table.setFilter('al');
      assert.deepEqual(texts(table).map((row) => row[1]), ['alps', 'alpine', 'alpha']);
      table.setFilter('alp');
      table.setFilter('alph');
      assert.deepEqual(texts(table).map((row) => row[1]), ['alpha']);
      table.setFilter('al');
      assert.deepEqual(texts(table).map((row) => row[1]), ['alps', 'alpine', 'alpha']);
    });
  });

  describe('copy', () => {
    it('quotes CSV fields as RFC 4180 says, and TSV fields that hold a tab, a quote or a line break', () => {
      assert.equal(quoteField('plain', 'csv'), 'plain');
      assert.equal(quoteField('a,b', 'csv'), '"a,b"');
      assert.equal(quoteField('say "hi"', 'csv'), '"say ""hi"""');
      assert.equal(quoteField('two\r\nlines', 'csv'), '"two\r\nlines"');
      assert.equal(quoteField('a\tb', 'csv'), 'a\tb');
      assert.equal(quoteField('a,b', 'tsv'), 'a,b');
      assert.equal(quoteField('a\tb', 'tsv'), '"a\tb"');
      assert.equal(quoteField('x"y', 'tsv'), '"x""y"');
    });

    it('copies the shown columns of the shown rows, or of the chosen ones, values as the answer holds them', () => {
      const table = model([
        { id: 1, nome: 'Rossi, Mario', sede: { cap: '20121' }, attiva: true, nota: null, d: '2024-03-05' },
        { id: 2, nome: 'Bianchi', sede: { cap: '10121' }, attiva: false, d: '2024-01-01' },
      ]);
      assert.equal(
        table.copy('csv').text,
        'id,nome,sede.cap,attiva,nota,d\r\n1,"Rossi, Mario",20121,true,,2024-03-05\r\n2,Bianchi,10121,false,,2024-01-01\r\n',
      );
      table.setSort(columnOf(table, 'id'), 'descending');
      table.setShownColumns([1, 0]);
      assert.deepEqual(table.copy('tsv', table.idsAt([0])), { text: 'nome\tid\nBianchi\t2\n', rows: 1 });
      assert.deepEqual(table.idsAt([1, 5, -1]), [0], 'positions past the shown rows are dropped');
    });
  });

  describe('windows of rows', () => {
    it('gives any window of 100,000 records without looking at the others', () => {
      const records = Array.from({ length: 100_000 }, (_, index) => ({ id: index + 1, codiceDitta: `RC-MI-${String(index + 1).padStart(6, '0')}`, sede: { cap: '20121' } }));
      const table = model(records, 'elementi');
      const rows = table.rows(99_990, 50);
      assert.equal(rows.length, 10);
      assert.equal(rows[9].cells[1].text, 'RC-MI-100000');
      assert.deepEqual(labels(table), ['id', 'codiceDitta', 'sede.cap']);
      assert.deepEqual(table.rows(200_000, 10), []);
      assert.equal(table.record(99_999), records[99_999]);
      assert.equal(table.record(100_000), undefined);
    });
  });
});
