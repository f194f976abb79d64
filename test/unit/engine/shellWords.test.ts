// Shell commands split into words as bash and cmd split them (nothing is run).
import * as assert from 'node:assert/strict';
import { commandExtent, dialectOf, shellCommands } from '../../../src/engine/importers/shellWords';

const words = (text: string) => shellCommands(text).map((command) => command.words);

describe('engine/importers/shellWords', () => {
  it('bash: single quotes keep everything, double quotes escape only $ ` " \\ and a line break', () => {
    assert.deepEqual(words(`curl 'a "b" \\n' "c \\"d\\" \\n \\$e" f\\ g`), [['curl', 'a "b" \\n', 'c "d" \\n $e', 'f g']]);
    assert.deepEqual(words(`curl 'it'\\''s' ""`), [['curl', "it's", '']]);
  });

  it("bash: $'...' strings read their escapes", () => {
    assert.deepEqual(words(`curl $'a\\r\\nb\\t\\'q\\' \\x41\\u00e8\\101'`), [['curl', "a\r\nb\t'q' Aè" + 'A']]);
  });

  it('bash: backslash continuations (a stray space after the backslash too), comments, and one command per line', () => {
    const text = ['# a comment', 'curl https://a.example \\', "  -H 'X: 1' \\  ", '  -d x=1', '', 'curl https://b.example # trailing'].join('\n');
    const commands = shellCommands(text);
    assert.deepEqual(commands.map((command) => command.words), [['curl', 'https://a.example', '-H', 'X: 1', '-d', 'x=1'], ['curl', 'https://b.example']]);
    assert.deepEqual(commands.map((command) => [command.startLine, command.endLine]), [[1, 3], [5, 5]]);
  });

  it('bash: a quote spanning lines is one word; the command ends where the quote is closed', () => {
    const lines = ['curl -d \'{', '  "a": 1', "}' https://x.example", 'GET /next'];
    assert.equal(commandExtent(lines, 0), 2);
    assert.deepEqual(words(lines.slice(0, 3).join('\n')), [['curl', '-d', '{\n  "a": 1\n}', 'https://x.example']]);
  });

  it('bash: variables are named, never expanded; a pipe or redirect is kept apart', () => {
    const [command] = shellCommands('curl -H "Authorization: Bearer $TOKEN" "https://x.example/${ID}?a=1&b=2" | jq .', (name) => `<${name}>`);
    assert.deepEqual(command.words, ['curl', '-H', 'Authorization: Bearer <TOKEN>', 'https://x.example/<ID>?a=1&b=2']);
    assert.deepEqual(command.variables, ['TOKEN', 'ID']);
    assert.equal(command.rest, '| jq .');
    assert.deepEqual(words('curl https://x.example/?a=1&b=2'), [['curl', 'https://x.example/?a=1&b=2']], 'an & inside an unquoted URL is no background job');
    assert.deepEqual(words('curl a; curl b && curl c'), [['curl', 'a'], ['curl', 'b'], ['curl', 'c']]);
  });

  it('cmd: ^ continuations and escapes, "..." with \\" inside, as "Copy as cURL (cmd)" writes them', () => {
    const text = ['curl ^"https://x.example/api?a=1^&b=2^" ^', '  -H ^"content-type: application/json^" ^', '  --data-raw ^"^{^\\^"a^\\^":1^}^"'].join('\n');
    assert.equal(dialectOf(text), 'cmd');
    assert.deepEqual(words(text), [['curl', 'https://x.example/api?a=1&b=2', '-H', 'content-type: application/json', '--data-raw', '{"a":1}']]);
    assert.equal(commandExtent(text.split('\n'), 0), 2);
    assert.deepEqual(shellCommands('curl "https://x.example" -d "{\\"a\\": \\"b c\\"}"', undefined, 'cmd')[0].words, ['curl', 'https://x.example', '-d', '{"a": "b c"}']);
    assert.equal(dialectOf("curl 'https://x.example' \\\n -H 'a: b'"), 'bash');
  });
});
