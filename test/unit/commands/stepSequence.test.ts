import * as assert from 'node:assert/strict';
import { runSteps, type StepOutcome } from '../../../src/commands/stepSequence';

/**
 * A scripted user: each step has a list of answers, one per visit; `skip` means the step did not apply
 * on that visit (it returns 'next' without showing anything). The log lists the steps shown, in order.
 */
function scripted(answers: Record<string, Array<StepOutcome | 'skip'>>) {
  const log: string[] = [];
  let current = { value: false };
  const steps = Object.entries(answers).map(([name, script]) => async (): Promise<StepOutcome> => {
    const answer = script.shift() ?? 'next';
    if (answer === 'skip') return 'next';
    current.value = true;
    log.push(name);
    return answer;
  });
  const track = () => (current = { value: false });
  return { steps, track, log };
}

describe('runSteps (Back in the Send Request flow)', () => {
  it('goes forward through the steps that show, and Back skips a step that did not apply', async () => {
    const user = scripted({ method: ['next'], path: ['next', 'next'], tenant: ['skip', 'skip'], query: ['back', 'next'] });
    assert.equal(await runSteps(user.steps, user.track), true);
    // Back from the query lands on the path, not on the tenant step that was never shown.
    assert.deepEqual(user.log, ['method', 'path', 'query', 'path', 'query']);
  });

  it('a step that asked on the way forward but has nothing to ask on the way back (key set, route saved) is passed over', async () => {
    const user = scripted({ method: ['next'], path: ['next', 'next'], licenceKey: ['next', 'skip', 'skip'], query: ['back', 'next'] });
    assert.equal(await runSteps(user.steps, user.track), true);
    // Without passing over it, Back from the query would land on the licence key step, which goes forward again at once.
    assert.deepEqual(user.log, ['method', 'path', 'licenceKey', 'query', 'path', 'query']);
  });

  it('Escape at any step cancels the flow', async () => {
    const user = scripted({ method: ['next'], path: ['cancel'], query: ['next'] });
    assert.equal(await runSteps(user.steps, user.track), false);
    assert.deepEqual(user.log, ['method', 'path']);
  });
});
