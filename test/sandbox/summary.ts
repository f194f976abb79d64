// What `npm run sandbox` and `npm start` print: the editor settings that point the extension at a
// running sandbox, and its users, clients and licence keys.
import { LICENCE_KEYS } from './seed';
import type { Sandbox } from './types';

export function editorSettings(sandbox: Sandbox): Record<string, unknown> {
  return {
    'tenantApi.authUrl': sandbox.authUrl,
    'tenantApi.baseUrl': sandbox.baseUrl,
    'tenantApi.clientId': sandbox.clients.public.clientId,
    // The cluster hosts share the base URL's host name (127.0.0.1) on other ports.
    'tenantApi.allowedHosts': ['127.0.0.1'],
  };
}

/** `npm start`'s settings: the sandbox as an environment named "Sandbox" (the top-level settings stay empty). */
export function sandboxEnvironmentSettings(sandbox: Sandbox): Record<string, unknown> {
  return {
    'tenantApi.environments': [
      {
        name: 'Sandbox',
        authUrl: sandbox.authUrl,
        baseUrl: sandbox.baseUrl,
        clientId: sandbox.clients.public.clientId,
        allowedHosts: ['127.0.0.1'],
      },
    ],
  };
}

export function summaryJson(sandbox: Sandbox): Record<string, unknown> {
  const keysByModule: Record<string, Array<{ key: string; organizationId: string; label: string }>> = {};
  for (const k of LICENCE_KEYS) (keysByModule[k.module] ??= []).push({ key: k.key, organizationId: k.organizationId, label: k.label });
  return {
    authUrl: sandbox.authUrl,
    baseUrl: sandbox.baseUrl,
    clusterUrls: sandbox.clusterUrls,
    endpoints: sandbox.endpoints,
    audience: sandbox.audience,
    apiScope: sandbox.apiScope,
    clients: sandbox.clients,
    users: sandbox.users.map((u) => ({ username: u.username, password: u.password, name: u.name, sub: u.sub, role: u.role, tenantIds: u.tenantIds })),
    tenants: sandbox.tenants,
    organizations: sandbox.organizations,
    licenceKeys: keysByModule,
    settings: editorSettings(sandbox),
    options: sandbox.options,
  };
}

export function summaryText(sandbox: Sandbox): string {
  const lines: string[] = [];
  lines.push('Tenant API sandbox is running.', '');
  lines.push(`  authorization server  ${sandbox.authUrl}   (discovery: ${sandbox.endpoints.discovery})`);
  lines.push(`  base URL              ${sandbox.baseUrl}`);
  sandbox.clusterUrls.forEach((url, i) => lines.push(`  cluster ${i}             ${url}`));
  lines.push('', 'VS Code settings (settings.json):', '');
  lines.push(JSON.stringify(editorSettings(sandbox), null, 2).replace(/^/gm, '  '));
  lines.push('', 'Users (sign in with these):');
  for (const u of sandbox.users) {
    const tenants = u.tenantIds.map((id) => sandbox.tenants.find((t) => t.id === id)?.codiceAmbienteDati ?? id).join(', ') || 'no tenants';
    lines.push(`  ${u.username.padEnd(12)} ${u.password.padEnd(16)} ${u.name} [${u.role.join(', ')}] - ${tenants}`);
  }
  lines.push('', 'Tenants:');
  for (const t of sandbox.tenants) lines.push(`  ${t.codiceAmbienteDati.padEnd(6)} ${t.id}  ${t.organizationId.padEnd(11)} ${t.clusterAddress}  ${t.descrizioneAmbienteDati}`);
  lines.push('', 'Licence keys (Tenant API: Set Licence Key):');
  for (const k of LICENCE_KEYS) lines.push(`  ${k.module.padEnd(5)} ${k.organizationId.padEnd(12)} ${k.key}`);
  lines.push('', 'Other clients:');
  lines.push(`  client_credentials  ${sandbox.clients.confidential.clientId} / ${sandbox.clients.confidential.clientSecret}`);
  lines.push(`  password grant      ${sandbox.clients.password.clientId} / ${sandbox.clients.password.clientSecret}`);
  const o = sandbox.options;
  lines.push('', `Knobs: timeScale ${o.timeScale}, access token TTL ${o.accessTokenTtlSeconds} s, weekly limit ${o.weeklyLimit || 'from licence'}, latency ${o.latencyMs}+${o.jitterMs} ms.`);
  return lines.join('\n');
}
