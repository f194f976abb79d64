/**
 * A Playwright error on one line: its first line and the last two steps of its call log, which say
 * why an action timed out (not visible, another element intercepts pointer events, detached).
 */
export function briefError(message: string): string {
  const [first, ...rest] = message.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const steps = rest.map((line) => line.trim().replace(/^-\s*/, '')).filter((line) => line && line !== 'Call log:');
  const last: string[] = [];
  for (let at = steps.length - 1; at >= 0 && last.length < 2; at--) if (!last.includes(steps[at])) last.unshift(steps[at]);
  return last.length ? `${first} (${last.join('; ')})` : first;
}
