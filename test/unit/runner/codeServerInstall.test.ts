import * as assert from 'node:assert/strict';
import { stepEndMessage } from '../../vscode/runner/codeServer';

describe('code-server install messages', () => {
  it('a step whose exit code is not trusted says a non-zero code is expected there, not a bare "exit code 1"', () => {
    const line = stepEndMessage('rebuild native modules', 1, false, 61_234);
    assert.doesNotMatch(line, /^rebuild native modules: exit code 1/);
    assert.match(line, /^rebuild native modules: finished in 61\.2 s \(exit code 1, expected here: .*checked next\)$/);
  });

  it('a step that must succeed reports its exit code plainly; a success says done', () => {
    assert.equal(stepEndMessage('npm install code-server', 1, true, 2000), 'npm install code-server: exit code 1 in 2.0 s');
    assert.equal(stepEndMessage('rebuild native modules', 0, false, 500), 'rebuild native modules: done in 0.5 s');
  });
});
