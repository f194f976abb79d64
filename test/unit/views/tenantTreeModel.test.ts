import * as assert from 'node:assert/strict';
import type { AccountInfo } from '../../../src/auth/types';
import type { EndpointDefinition, TenantRecord } from '../../../src/api/types';
import { RouteTable } from '../../../src/api/routes';
import { dataSelector } from '../../../src/views/responsePresentation';
import {
  accountChildren,
  accountNodes,
  keyGroupChildren,
  present,
  resourceId,
  splitResources,
  tenantChildren,
  type KeyGroupNode,
  type MessageNode,
  type TenantNode,
} from '../../../src/views/tenantTreeModel';

const account: AccountInfo = { id: 'u1', label: 'Mario Rossi', roles: ['admin'] };
const tenants: TenantRecord[] = [
  { id: 'a1', codiceAmbienteDati: 'AMB1', descrizioneAmbienteDati: 'Rossi S.p.A.', clusterAddress: 'https://c1.example.com', usable: true },
  { id: 'b2', codiceAmbienteDati: 'AMB2', descrizioneAmbienteDati: 'Bianchi', clusterAddress: 'http://evil.example', usable: false, unusableReason: 'Host not allowed' },
];
const endpoints: EndpointDefinition[] = [
  { label: 'Configurazioni', method: 'GET', path: '/api/configurazioni' },
  { label: 'Ditte', method: 'GET', path: '/efat/api/v1/ditte' },
  { label: 'Crea ditta', method: 'POST', path: '/efat/api/v1/ditte' },
];

describe('tenantTreeModel', () => {
  const [active] = accountNodes([account], 'u1');

  it('lists the active account expanded, others collapsed with a "use" action', () => {
    const nodes = accountNodes([account, { id: 'u2', label: 'Other', roles: [] }], 'u1');
    assert.equal(present(nodes[0]).collapsible, 'expanded');
    assert.equal(present(nodes[0]).contextValue, 'account');
    const other = accountChildren(nodes[1], undefined, undefined);
    assert.equal((other[0] as MessageNode).action?.command, 'tenantApi.internal.useAccount');
  });

  it('shows loading, empty and error states as items with an action', () => {
    assert.equal((accountChildren(active, { kind: 'loading' }, undefined)[0] as MessageNode).icon, 'loading');
    const empty = accountChildren(active, { kind: 'loaded', tenants: [] }, undefined)[0] as MessageNode;
    assert.equal(empty.action?.command, 'tenantApi.refreshTenants');
    const cases: Array<[string | undefined, string]> = [
      ['auth', 'tenantApi.signIn'],
      ['network', 'tenantApi.refreshTenants'],
      [undefined, 'tenantApi.refreshTenants'],
      ['invalidRequest', 'workbench.action.openSettings'],
      ['licenceMissing', 'tenantApi.setLicenceKey'],
      ['weeklyQuota', 'tenantApi.showQuota'],
    ];
    for (const [errorKind, command] of cases) {
      const node = accountChildren(active, { kind: 'error', errorKind, message: 'boom' }, undefined)[0] as MessageNode;
      assert.equal(node.action?.command, command, String(errorKind));
      assert.equal(present(node).command?.command, command);
    }
  });

  it('presents tenants: label, code, tooltip with id and cluster, active and unusable marks', () => {
    const nodes = accountChildren(active, { kind: 'loaded', tenants }, 'a1') as TenantNode[];
    const first = present(nodes[0]);
    assert.equal(first.label, 'Rossi S.p.A.');
    assert.match(first.description ?? '', /^AMB1/);
    assert.equal(first.contextValue, 'tenant-active');
    assert.match(first.tooltip ?? '', /a1/);
    assert.match(first.tooltip ?? '', /https:\/\/c1\.example\.com/);
    const second = present(nodes[1]);
    assert.equal(second.contextValue, 'tenant-unusable');
    assert.match(second.description ?? '', /unusable/);
    assert.equal(second.icon, 'warning');
  });

  it('lists the GET endpoints under a usable tenant, each opening the resource', () => {
    const [tenant] = accountChildren(active, { kind: 'loaded', tenants }, undefined) as TenantNode[];
    const children = tenantChildren(tenant, endpoints, new Map());
    assert.deepEqual(children.map((child) => present(child).label), ['Configurazioni', 'Ditte']);
    const shown = present(children[1]);
    assert.equal(shown.contextValue, 'resource');
    assert.equal(shown.command?.command, 'tenantApi.openResource');
    assert.deepEqual(shown.command?.args, [{ tenantId: 'a1', method: 'GET', path: '/efat/api/v1/ditte' }]);
  });

  it('shows a resource problem with its fix as the click action', () => {
    const [tenant] = accountChildren(active, { kind: 'loaded', tenants }, undefined) as TenantNode[];
    const problems = new Map([[resourceId('a1', endpoints[1]), { message: 'licence key missing', action: { command: 'fix', title: 'Fix' } }]]);
    const shown = present(tenantChildren(tenant, endpoints, problems)[1]);
    assert.equal(shown.description, 'licence key missing');
    assert.equal(shown.command?.command, 'fix');
    assert.equal(shown.icon, 'warning');
  });

  it('explains an unusable tenant instead of listing resources', () => {
    const nodes = accountChildren(active, { kind: 'loaded', tenants }, undefined) as TenantNode[];
    const children = tenantChildren(nodes[1], endpoints, new Map());
    assert.equal(children.length, 1);
    assert.equal((children[0] as MessageNode).message, 'Host not allowed');
  });

  it('lists tenant-scoped resources under the tenants, the others apart, by the route table\'s needsTenant', () => {
    const table = new RouteTable([{ prefix: '/api/tenanted/', host: 'base', module: 'core', tenantScoped: true }]);
    const all = [...endpoints, { label: 'Per tenant', method: 'GET', path: '/api/tenanted/x' }, { label: 'Me', method: 'GET', path: '/v10/me' }];
    const { tenantScoped, notTenantScoped } = splitResources(all, (path) => table.match(path));
    assert.deepEqual(tenantScoped.map((endpoint) => endpoint.label), ['Ditte', 'Per tenant']);
    assert.deepEqual(notTenantScoped.map(({ endpoint }) => endpoint.label), ['Configurazioni', 'Me']);
    const roots = accountChildren(active, { kind: 'loaded', tenants }, undefined, { keyResources: true });
    assert.deepEqual(roots.map((node) => node.kind), ['tenant', 'tenant', 'keyGroup']);
    assert.equal(accountChildren(active, { kind: 'loaded', tenants }, undefined).at(-1)?.kind, 'tenant');
    assert.equal(accountChildren(active, { kind: 'loaded', tenants: [] }, undefined, { keyResources: true }).at(-1)?.kind, 'keyGroup');
  });

  it('names the licence key\'s organization, not a tenant, for a resource outside every tenant', () => {
    const table = new RouteTable();
    const group = accountChildren(active, { kind: 'loaded', tenants }, undefined, { keyResources: true }).at(-1) as KeyGroupNode;
    const shownGroup = present(group);
    assert.equal(shownGroup.label, "Data of the licence key's organization");
    assert.equal(shownGroup.collapsible, 'expanded');
    const licence = { module: 'core', label: 'Rossi core', organization: 'Rossi Costruzioni S.r.l.' };
    const [withKey, withoutKey, user] = keyGroupChildren(group, [
      { endpoint: endpoints[0], selector: dataSelector(table.match('/api/configurazioni'), undefined, licence) as never },
      { endpoint: endpoints[0], selector: dataSelector(table.match('/api/configurazioni'), undefined, undefined) as never },
      { endpoint: { label: 'Me', method: 'GET', path: '/v10/me' }, selector: { kind: 'user' } },
    ]).map(present);
    assert.equal(withKey.description, 'Rossi Costruzioni S.r.l. · GET /api/configurazioni');
    assert.match(withKey.tooltip ?? '', /Rossi Costruzioni S\\\.r\\\.l\\\./);
    assert.doesNotMatch(withKey.tooltip ?? '', /Tenant:/);
    assert.deepEqual(withKey.command?.args, [{ method: 'GET', path: '/api/configurazioni' }], 'opened without a tenant');
    assert.equal(withKey.contextValue, 'resource');
    assert.equal(withoutKey.description, 'no licence key for core · GET /api/configurazioni');
    assert.equal(user.description, 'your sign-in · GET /v10/me');
  });

  it('uses the context values the manifest menus expect', () => {
    const manifest = require('../../../package.json') as { contributes: { menus: Record<string, Array<{ when?: string }>> } };
    const whens = Object.values(manifest.contributes.menus).flat().map((item) => item.when ?? '').join(' ');
    assert.match(whens, /viewItem == resource/);
    assert.match(whens, /viewItem =~ \/\^tenant\//);
    assert.match(whens, /\^\(account\|tenant\)/);
  });
});
