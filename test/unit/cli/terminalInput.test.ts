// A secret asked at the terminal: typed hidden in raw mode, Enter ends it, Backspace corrects, Ctrl+C stops.
import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { AnswerInterrupted, askHidden } from '../../../src/cli/terminalInput';

function terminal() {
  const input = Object.assign(new EventEmitter(), { isTTY: true, isRaw: false, modes: [] as boolean[], paused: false });
  const fake = Object.assign(input, {
    setRawMode(mode: boolean) {
      input.modes.push(mode);
      input.isRaw = mode;
    },
    resume() {
      input.paused = false;
    },
    pause() {
      input.paused = true;
    },
  });
  let written = '';
  return { input: fake, output: { write: (text: string) => (written += text) }, written: () => written };
}

describe('a secret asked at the terminal', () => {
  it('reads it without echo, in raw mode, and puts the terminal back', async () => {
    const { input, output, written } = terminal();
    const answer = askHidden('Key: ', input, output);
    input.emit('data', Buffer.from('COREKEY12'));
    input.emit('data', Buffer.from('3x\u007f4\r'));
    assert.equal(await answer, 'COREKEY1234');
    assert.equal(written(), 'Key: \n', 'the key is never written back');
    assert.deepEqual(input.modes, [true, false]);
    assert.equal(input.paused, true, 'the input lets the process end');
    assert.equal(input.listenerCount('data'), 0);
  });

  it('Enter alone skips it; Ctrl+C stops', async () => {
    const first = terminal();
    const skipped = askHidden('Key: ', first.input, first.output);
    first.input.emit('data', '\r');
    assert.equal(await skipped, '');
    const second = terminal();
    const stopped = askHidden('Key: ', second.input, second.output);
    second.input.emit('data', 'AB\u0003');
    await assert.rejects(stopped, AnswerInterrupted);
  });
});
