import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ERROR_ACTIONS, treeCommandOf } from '../../../src/api/errorActions';
import { apiErrors } from '../../../src/api/errors';
import { accountChildren, type AccountNode, type MessageNode } from '../../../src/views/tenantTreeModel';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');

/** The kinds src/api/errors.ts creates (`new ApiError('kind', ...)`) and the ApiErrorKind union of src/api/types.ts. */
function declaredKinds(): { created: string[]; union: string[] } {
  const created = [...read('src/api/errors.ts').matchAll(/new ApiError\(\s*'([A-Za-z]+)'/g)].map((match) => match[1]);
  const union = /export type ApiErrorKind =([\s\S]*?);\n/.exec(read('src/api/types.ts'))?.[1] ?? '';
  return { created: [...new Set(created)].sort(), union: [...union.matchAll(/\|\s*'([A-Za-z]+)'/g)].map((match) => match[1]).sort() };
}

describe('the error-kind -> action map (src/api/errorActions.ts)', () => {
  it('has an entry for every error kind of src/api/errors.ts, and none more', () => {
    const { created, union } = declaredKinds();
    const keys = Object.keys(ERROR_ACTIONS).sort();
    assert.ok(created.length >= 10, created.join(' '));
    assert.deepEqual(created.filter((kind) => !keys.includes(kind)), [], 'a kind errors.ts creates has no entry');
    assert.deepEqual(union, keys, 'ApiErrorKind and the map differ');
  });

  it('every row says why, and its tree action points at one of its buttons that runs a command', () => {
    for (const [kind, row] of Object.entries(ERROR_ACTIONS)) {
      assert.ok(row.why.length > 10, kind);
      if (!row.tree) continue;
      const chosen = row.actions({ module: 'core', organization: 'Rossi' })[row.tree.action];
      assert.ok(chosen && 'command' in chosen, `${kind}: the tree action is not a command`);
    }
  });

  it('is what the Tenants view runs for a tenant listing that failed, kind by kind', () => {
    const account: AccountNode = { kind: 'account', id: 'account:a1', account: { id: 'a1', label: 'Mario', roles: [] }, active: true };
    for (const kind of Object.keys(ERROR_ACTIONS)) {
      const error = { kind: 'error' as const, errorKind: kind, message: 'boom', module: 'core' };
      const node = accountChildren(account, error, undefined)[0] as MessageNode;
      const expected = treeCommandOf(kind, { module: 'core' });
      assert.equal(node.action?.command, expected?.command ?? 'tenantApi.refreshTenants', kind);
      assert.deepEqual(node.action?.args ?? [], expected?.args ?? [], kind);
    }
  });

  it('names the settings of the allowed hosts for a refused host, in the tree as in the notification', () => {
    const error = apiErrors.hostNotAllowed('no', {});
    const account: AccountNode = { kind: 'account', id: 'account:a1', account: { id: 'a1', label: 'Mario', roles: [] }, active: true };
    const node = accountChildren(account, { kind: 'error', errorKind: error.kind, message: error.message }, undefined)[0] as MessageNode;
    assert.deepEqual(node.action?.args, ['tenantApi.allowedHosts']);
  });
});
