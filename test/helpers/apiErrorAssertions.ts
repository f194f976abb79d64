import * as assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';

/** For assert.rejects: the call ended in an ApiError of `kind`; `check` looks further. */
export function rejectsWith(kind: string, check?: (error: ApiError) => void) {
  return (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.kind, kind, error.message);
    check?.(error);
    return true;
  };
}
