import * as assert from 'node:assert/strict';
import { SignInRequiredError, isSignInRequired } from '../../../src/common/signInRequired';

describe('isSignInRequired', () => {
  it('recognises the typed error, not an error that merely shares its name', () => {
    assert.equal(isSignInRequired(new SignInRequiredError()), true);
    const lookalike = new Error('sign in');
    lookalike.name = 'SignInRequiredError';
    assert.equal(isSignInRequired(lookalike), false);
    assert.equal(isSignInRequired(undefined), false);
    assert.equal(isSignInRequired('SignInRequiredError'), false);
  });
});
