// How watches and cached answers are worded: the status bar's count and cost, a cached answer's age, the watched tab's lines.
import * as assert from 'node:assert/strict';
import { bodyDiff } from '../../../src/engine/bodyDiff';
import { WATCH_STOP_REASONS } from '../../../src/engine/watchSchedule';
import { cachedAge, watchPauseMessage, watchResumeMessage, watchStatusText, watchStopMessage, watchTabLines } from '../../../src/views/watchPresentation';

describe('watch presentation', () => {
  it('counts the watches and their calls per hour', () => {
    assert.equal(watchStatusText(1, 60), '1 watch · 60 calls/h');
    assert.equal(watchStatusText(2, 120), '2 watches · 120 calls/h');
    assert.equal(watchStatusText(3, 60, 2), '1 watch · 60 calls/h · 2 paused', 'paused watches make no calls');
    assert.equal(watchStatusText(1, 0, 1), '1 watch paused', 'none running: no count of calls');
    assert.equal(watchStatusText(2, 0, 2), '2 watches paused');
  });

  it('says which watches paused, for which environment, and when they come back', () => {
    assert.equal(watchPauseMessage(['GET riepilogo · BA-PR'], 'Default', 'Beta'), 'Paused watching GET riepilogo · BA-PR: "Beta" is active now. It resumes when you switch back to "Default".');
    assert.equal(watchPauseMessage(['a', 'b'], 'Default', 'Beta'), 'Paused 2 watches of "Default" while "Beta" is active. They resume when you switch back.');
    assert.equal(watchResumeMessage(['GET riepilogo · BA-PR'], 'Default'), 'Resumed watching GET riepilogo · BA-PR: "Default" is active again.');
    assert.equal(watchResumeMessage(['a', 'b'], 'Default'), 'Resumed 2 watches: "Default" is active again.');
  });

  it('says a cached answer\'s age', () => {
    const cases: Array<[number, string]> = [[0, 'cached just now'], [4_999, 'cached just now'], [12_000, 'cached 12 s ago'], [125_000, 'cached 2 min ago'], [7_300_000, 'cached 2 h ago'], [-5, 'cached just now']];
    for (const [ms, text] of cases) assert.equal(cachedAge(ms), text, `${ms} ms`);
  });

  it('has a message for every stop reason, naming the watch', () => {
    for (const reason of WATCH_STOP_REASONS) assert.match(watchStopMessage(reason, 'GET riepilogo · RC-MI', '503'), /GET riepilogo · RC-MI/);
    assert.match(watchStopMessage('errorAnswer', 'x', '503 Service Unavailable'), /error \(503 Service Unavailable\)/);
  });

  it('shows when the watched body last changed and how', () => {
    const at = new Date(2026, 10, 25, 9, 5, 7).getTime();
    const diff = bodyDiff('{"a":1}', '{"a":2}');
    const lines = watchTabLines({ intervalSeconds: 60, checkedAt: at, lastChange: { at, diff }, first: false });
    assert.deepEqual(lines, [
      'Watching: sent again every 60 s (Stop Watch ends it); checked at 09:05:07 AM',
      'last changed at 09:05:07 AM (+1 −1 lines); what changed:',
      '    {',
      '  -   "a": 1',
      '  +   "a": 2',
      '    }',
    ]);
    assert.match(watchTabLines({ intervalSeconds: 60, checkedAt: at, lastChange: { at, diff }, first: false }, 'it')[0], /checked at 09:05:07$/, 'the locale\'s own hour cycle');
    assert.match(watchTabLines({ intervalSeconds: 60, checkedAt: at, first: true }).join('\n'), /First answer of the watch/);
    assert.match(watchTabLines({ intervalSeconds: 60, checkedAt: at, first: false }).join('\n'), /No change since the watch started/);
  });
});
