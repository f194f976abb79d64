import * as assert from 'node:assert/strict';
import { formatResponse, type ResponseLike } from '../../../src/views/responseFormat';
import { formatResponseTab } from '../../../src/views/responsePreview';

function listResponse(json: unknown): ResponseLike {
  const bodyText = JSON.stringify(json);
  return {
    method: 'GET',
    url: 'http://127.0.0.1:9/efat/api/v1/ditte?dimensionePagina=1000',
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': 'application/json' },
    bodyText,
    json,
    timeMs: 12,
    sizeBytes: bodyText.length,
  };
}

const row = (index: number) => ({ id: index + 1, codiceDitta: `RC-MI-${index + 1}`, indirizzo: { via: 'Via Roma', numero: index } });
const page = (count: number) => ({ pagina: 1, totaleElementi: count, elementi: Array.from({ length: count }, (_, index) => row(index)), ambienteDati: 'RC-MI' });

/** The body without the comment lines (JSONC comments), parsed. */
function parsedBody(text: string): unknown {
  return JSON.parse(
    text
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('//'))
      .join('\n'),
  );
}

describe('responsePreview', () => {
  it('shows the first items of a large list pretty-printed, the count, and where to open the whole', () => {
    const response = listResponse(page(1000));
    const tab = formatResponseTab(response, {}, { aboveBytes: 1000, items: 3 });
    assert.ok(tab.preview);
    assert.equal(tab.preview.totalItems, 1000);
    assert.equal(tab.preview.shownItems, 3);
    assert.equal(tab.preview.listKey, 'elementi');
    assert.equal(tab.languageId, 'jsonc');
    // Valid JSON once the comments are gone: the other properties whole, the list cut to 3 items.
    assert.deepEqual(parsedBody(tab.text), { ...page(1000), elementi: page(3).elementi });
    // Pretty-printed: a record spans lines (folding works on it).
    assert.match(tab.text, /^ {4}\{\n {6}"id": 1,\n {6}"codiceDitta": "RC-MI-1",\n {6}"indirizzo": \{$/m);
    const lines = tab.text.split('\n');
    assert.deepEqual(
      tab.preview.noticeLines.map((line) => lines[line].trim()),
      ['// Preview: the first 3 of 1,000 items of a ' + tab.text.match(/of a ([\d.]+ KB) response/)![1] + ' response. Open the whole response to see them all.', '// … 997 more items: Open the whole response'],
    );
  });

  it('opens the whole response as formatResponse lays it out, only when asked', () => {
    const response = listResponse([...Array(200).keys()].map(row));
    const tab = formatResponseTab(response, { receivedAt: 0 }, { aboveBytes: 1000, items: 10 });
    assert.ok(tab.preview);
    assert.equal(tab.preview.listKey, '');
    assert.deepEqual(parsedBody(tab.text), [...Array(10).keys()].map(row));
    assert.equal(tab.preview.whole().text, formatResponse(response, { receivedAt: 0 }).text);
    assert.deepEqual(parsedBody(tab.preview.whole().text), [...Array(200).keys()].map(row));
  });

  it('shows the whole response when it is small, has no list, or its list fits in the preview', () => {
    const small = listResponse(page(5));
    assert.deepEqual(formatResponseTab(small), formatResponse(small));
    const noList = listResponse({ text: 'x'.repeat(5000) });
    assert.equal(formatResponseTab(noList, {}, { aboveBytes: 1000 }).preview, undefined);
    const shortList = listResponse({ note: 'y'.repeat(5000), elementi: [1, 2] });
    assert.equal(formatResponseTab(shortList, {}, { aboveBytes: 1000, items: 2 }).preview, undefined);
    const notJson = { ...listResponse(null), bodyText: 'z'.repeat(5000), json: undefined, headers: {} };
    assert.deepEqual(formatResponseTab(notJson, {}, { aboveBytes: 1000 }), formatResponse(notJson));
  });

  it('keeps the header block of the whole response: the full size and the context lines', () => {
    const response = listResponse(page(1000));
    const tab = formatResponseTab(response, { context: ['Tenant: RC-MI'] }, { aboveBytes: 1000, items: 3 });
    assert.match(tab.text, /^\/\/ Tenant: RC-MI$/m);
    assert.ok(tab.text.includes(`// 200 OK · 12 ms · `));
    assert.ok(tab.text.length < response.bodyText.length / 20, `the preview is small: ${tab.text.length} characters`);
  });
});
