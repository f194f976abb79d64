import * as assert from 'node:assert/strict';
import { splitStartArgs } from '../../sandbox/startArgs';

describe('npm start arguments', () => {
  it('takes --locale for the editor and leaves the sandbox options to the sandbox', () => {
    assert.deepEqual(splitStartArgs(['--locale', 'it', '--latency', '20']), { locale: 'it', sandboxArgs: ['--latency', '20'] });
    assert.deepEqual(splitStartArgs(['--time-scale=0.1', '--locale=it']), { locale: 'it', sandboxArgs: ['--time-scale=0.1'] });
    assert.deepEqual(splitStartArgs([]), { locale: undefined, sandboxArgs: [] });
  });

  it('says what --locale needs when its value is missing', () => {
    assert.throws(() => splitStartArgs(['--locale']), /--locale needs a language tag, for example --locale it/);
    assert.throws(() => splitStartArgs(['--locale', '--latency', '20']), /needs a language tag/);
  });
});
