// Assertion lines (`?? status == 200`): the parser and the evaluator as tables, httpYac's documented examples included.
import * as assert from 'node:assert/strict';
import { parseAssertionLine, type Assertion } from '../../../src/engine/assertions/assertionLine';
import { evaluateAssertion } from '../../../src/engine/assertions/evaluateAssertion';
import { OPERATORS } from '../../../src/engine/assertions/operators';
import type { AssertedResponse } from '../../../src/engine/assertions/subjects';

function parsed(text: string): Assertion {
  const result = parseAssertionLine(text, 4);
  assert.ok(result, `${text} is not read as an assertion line`);
  if (!result.ok) assert.fail(`${text}: ${result.problem.message}`);
  return result.assertion;
}

function response(body: string, extra: Partial<AssertedResponse> = {}): AssertedResponse {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'x-count': '0' }, bodyText: body, json, timeMs: 120, ...extra };
}

const ditte = response('{"items":[{"id":7,"name":"Rossi","active":true,"tags":["a","b"]}],"total":0,"empty":null}');

describe('assertion lines', () => {
  describe('parsing', () => {
    const cases: Array<[string, string, string | undefined, string, string | undefined]> = [
      ['?? status == 200', 'status', undefined, '==', '200'],
      ['?? header content-type includes json', 'header', 'content-type', 'includes', 'json'],
      ['?? body $.items[0].id exists', 'body', '$.items[0].id', 'exists', undefined],
      ['?? duration < 500', 'duration', undefined, '<', '500'],
      ['   ??   status   ==   200   ', 'status', undefined, '==', '200'],
      ['?? STATUS EQUALS 200', 'status', undefined, '==', '200'],
      ['?? status not equals 404', 'status', undefined, '!=', '404'],
      ['?? body == {"foo": "bar"}', 'body', undefined, '==', '{"foo": "bar"}'],
      ['?? body foo == bar', 'body', 'foo', '==', 'bar'],
      ['?? body $.formula == a > b', 'body', '$.formula', '==', 'a > b'],
      ['?? header x-total == {{expectedTotal}}', 'header', 'x-total', '==', '{{expectedTotal}}'],
    ];
    for (const [text, subject, argument, operator, expected] of cases) {
      it(`reads ${text.trim()}`, () => {
        const line = parsed(text);
        assert.deepEqual([line.subject.name, line.argument, line.operator.name, line.expected, line.line], [subject, argument, operator, expected, 4]);
      });
    }

    it('leaves every other line alone', () => {
      for (const text of ['GET /api/configurazioni', '# ?? status == 200', 'Accept: application/json', '{"a": "?? x"}']) {
        assert.equal(parseAssertionLine(text, 0), undefined, text);
      }
    });

    const problems: Array<[string, RegExp, number, number]> = [
      ['??', /says what it checks/, 0, 2],
      ['?? js response.parsedBody == {"foo": "bar"}', /never run code/, 3, 5],
      ['?? xpath //a exists', /not supported/, 3, 8],
      ['?? notvalid response.parsedBody == {"foo": "bar"}', /"notvalid" is not something/, 3, 11],
      ['?? js response.parsedBody =!= {"foo": "bar"}', /never run code/, 3, 5],
      ['?? status 200', /no operator/, 3, 13],
      ['?? status 200 == 200', /takes no name or path here/, 9, 14],
      ['?? header == text/plain', /needs a name/, 9, 10],
      ['?? status ==', /needs a value/, 10, 12],
      ['?? header range exists yes', /takes no value: remove "yes"/, 16, 26],
      ['?? body $..id exists', /recursive descent/, 7, 14],
      ['?? body $.name matches [a-', /not a valid regular expression/, 15, 26],
      ['?? header bad name exists', /not a header name/, 9, 19],
    ];
    for (const [text, message, start, end] of problems) {
      it(`refuses ${text} with a reason at the right columns`, () => {
        const result = parseAssertionLine(text, 2);
        assert.ok(result && !result.ok, 'read as a valid assertion');
        assert.match(result.problem.message, message);
        assert.deepEqual([result.problem.line, result.problem.start, result.problem.end], [2, start, end]);
      });
    }

    it("reads every example of httpYac's assert guide with no problem", () => {
      // https://httpyac.github.io/guide/assert.html, the conditions table.
      const documented = [
        '?? status == 200', '?? status != 201', '?? status > 199', '?? status >= 200', '?? duration < 300',
        '?? status <= 200', '?? status startsWith 20', '?? status endsWith 00', '?? header content-type includes json',
        '?? header range exists', '?? header range isFalse', '?? status isNumber', '?? status isBoolean',
        '?? status isString', '?? body isArray',
        // httpYac's own tests of the body subject (src/plugins/assert/test/body.spec.ts).
        '?? body == {"foo":"bar"}', '?? body foo == bar', '?? body sha256 eji/gfOD9pQzrW6QDTWz4jhVk/dqe3q11DVbi6Qe4ks=', '?? body md5 m7WPJhkuS6APAeLnsTa72A==',
      ];
      for (const text of documented) parsed(text);
    });
  });

  describe('checking a response', () => {
    const cases: Array<[string, AssertedResponse, boolean]> = [
      ['?? status == 200', ditte, true], ['?? status == 201', ditte, false],
      ['?? status != 201', ditte, true], ['?? status != 200', ditte, false],
      ['?? status > 199', ditte, true], ['?? status > 200', ditte, false],
      ['?? status >= 200', ditte, true], ['?? status >= 201', ditte, false],
      ['?? duration < 500', ditte, true], ['?? duration < 100', ditte, false],
      ['?? status <= 200', ditte, true], ['?? status <= 199', ditte, false],
      ['?? status startsWith 20', ditte, true], ['?? status startsWith 30', ditte, false],
      ['?? status endsWith 00', ditte, true], ['?? status endsWith 01', ditte, false],
      ['?? header Content-Type includes json', ditte, true], ['?? header content-type includes xml', ditte, false],
      ['?? header content-type contains json', ditte, true],
      ['?? body $.items[0].name matches ^Ro', ditte, true], ['?? body $.items[0].name matches ^X', ditte, false],
      ['?? body $.items[0].id exists', ditte, true], ['?? body $.items[0].missing exists', ditte, false],
      ['?? body $.items[0].active isTrue', ditte, true], ['?? body $.total isTrue', ditte, false],
      ['?? body $.total isFalse', ditte, true], ['?? body $.items[0].active isFalse', ditte, false],
      ['?? body $.total isNumber', ditte, true], ['?? body $.items[0].name isNumber', ditte, false],
      ['?? body $.items[0].name isString', ditte, true], ['?? body $.total isString', ditte, false],
      ['?? body $.items[0].active isBoolean', ditte, true], ['?? body $.total isBoolean', ditte, false],
      ['?? body $.items isArray', ditte, true], ['?? body $.total isArray', ditte, false],
      ['?? body $.items[0].tags includes a', ditte, true], ['?? body $.items[0].tags includes z', ditte, false],
      ['?? body $.items[*].id includes 7', ditte, true],
      // Where httpYac differs (the rows of operators.ts say why): 0 exists and compares as a number.
      ['?? body $.total exists', ditte, true], ['?? body $.total >= 0', ditte, true],
      // Number vs string: the expected text is read as the actual value's type.
      ['?? body $.items[0].id == 7', ditte, true], ['?? body $.items[0].id == "7"', ditte, false],
      ['?? body $.items[0].name == 7', ditte, false], ['?? header x-count == 0', ditte, true],
      ['?? header x-count > -1', ditte, true], ['?? body $.empty == null', ditte, true],
      // A missing header or path fails every comparison but isFalse.
      ['?? header x-missing exists', ditte, false], ['?? header x-missing == a', ditte, false],
      ['?? header x-missing isFalse', ditte, true], ['?? body $.nothing.deeper == 1', ditte, false],
      // Objects compare by value, key order aside.
      ['?? body == {"foo":"bar"}', response('{"foo":"bar"}'), true], ['?? body == {"foo":"baz"}', response('{"foo":"bar"}'), false],
      ['?? body == {"b":1,"a":2}', response('{"a":2,"b":1}'), true],
      // httpYac's own tests of the body subject (src/plugins/assert/test/body.spec.ts).
      ['?? body sha256 eji/gfOD9pQzrW6QDTWz4jhVk/dqe3q11DVbi6Qe4ks=', response('{"foo":"bar"}'), true],
      ['?? body sha512 DbaK1OQdOya6P8SKXafJ9ha4E+d8tOlRGH4fKjfCutlAQQififYBLue0TiH4Y8XZVT47Zl7a6GQLsidLVVJm6w==', response('{"foo":"bar"}'), true],
      ['?? body md5 m7WPJhkuS6APAeLnsTa72A==', response('{"foo":"bar"}'), true], ['?? body md5 AAAA', response('{"foo":"bar"}'), false],
      ['?? body foo == bar', response('{"foo":"bar"}'), true],
      // A body that is not JSON: the whole text is there, a path is not.
      ['?? body == plain text', response('plain text'), true], ['?? body includes ain', response('plain text'), true],
      ['?? body $.a exists', response('plain text'), false],
    ];
    for (const [text, answer, expected] of cases) {
      it(`${expected ? 'passes' : 'fails'} ${text}`, () => {
        assert.equal(evaluateAssertion(parsed(text), answer).passed, expected);
      });
    }

    it('says what it found when an assertion fails, and why a path could not be read', () => {
      const failed = evaluateAssertion(parsed('?? status == 201'), ditte);
      assert.deepEqual([failed.actual, failed.expected, failed.message], ['200', '201', 'status: expected 201, found 200']);
      assert.equal(evaluateAssertion(parsed('?? body $.dimensionePagina == 2'), response('{"dimensionePagina": 1}')).message, 'body $.dimensionePagina: expected 2, found 1', 'which value, expected and found');
      assert.equal(evaluateAssertion(parsed('?? status < 200'), ditte).message, 'status: expected < 200, found 200', 'another operator is part of what was expected');
      assert.equal(evaluateAssertion(parsed('?? header x-missing exists'), ditte).message, 'header x-missing: expected exists, found missing');
      const missing = evaluateAssertion(parsed('?? header x-missing == a'), ditte);
      assert.equal(missing.actual, 'missing');
      const notJson = evaluateAssertion(parsed('?? body $.a exists'), response('<html/>'));
      assert.match(notJson.message, /body \$\.a: the body is not JSON/);
      assert.equal(evaluateAssertion(parsed('?? body $.items[0].id exists'), ditte).message, 'body $.items[0].id exists');
    });

    it('compares with the expected value as filled from variables', () => {
      const line = parsed('?? body $.items[0].id == {{id}}');
      assert.equal(evaluateAssertion(line, ditte, '7').passed, true);
      assert.equal(evaluateAssertion(line, ditte, '8').passed, false);
      assert.equal(evaluateAssertion(line, ditte, '8').expected, '8');
    });

    it('has a row for each operator of the issue, each tested true and false above', () => {
      const names = OPERATORS.map((operator) => operator.name);
      for (const name of ['==', '!=', '<', '<=', '>', '>=', 'includes', 'startsWith', 'endsWith', 'matches', 'exists', 'isTrue', 'isFalse', 'isNumber', 'isString', 'isBoolean', 'isArray']) {
        assert.ok(names.includes(name), name);
        const rows = cases.filter(([text]) => parsed(text).operator.name === name);
        assert.ok(rows.some((row) => row[2]) && rows.some((row) => !row[2]), `${name} is not tested both ways`);
      }
    });
  });
});
