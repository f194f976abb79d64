/** What a step of a multi-step input resolves with. */
export type StepOutcome = 'next' | 'back' | 'cancel';

/**
 * Runs the steps of a multi-step input in order; false when the user cancelled. A step that does not
 * apply (no tenant for a base path, no body for GET, a key already set, a route already known) returns
 * 'next' at once without showing anything. Back must skip such steps too: so remember which steps
 * really asked, and keep going back past a step that did not ask this time (a licence key set, a
 * route saved on the way forward). `track` is called before each step; the step sets its `value` when
 * it shows an input.
 */
export async function runSteps(steps: ReadonlyArray<() => Promise<StepOutcome>>, track: () => { value: boolean }): Promise<boolean> {
  const asked: number[] = [];
  let index = 0;
  let goingBack = false;
  while (index < steps.length) {
    const shown = track();
    const result = await steps[index]();
    if (result === 'cancel') return false;
    if (result === 'back' || (goingBack && !shown.value && asked.length > 0)) {
      index = asked.pop() ?? 0;
      goingBack = true;
      continue;
    }
    goingBack = false;
    if (shown.value) asked.push(index);
    index++;
  }
  return true;
}
