// What `npm run sandbox` and `npm start` print: the editor settings that point the extension at a
// running sandbox, and its users, clients and licence keys.
import { OPENAPI_DOCUMENTS } from './api/openapi';
import { SUMMARY_PATH } from './api/resourceApi';
import { LICENCE_KEYS } from './seed';
import type { Sandbox } from './types';

export function editorSettings(sandbox: Sandbox): Record<string, unknown> {
  return {
    'tenantApi.authUrl': sandbox.authUrl,
    'tenantApi.baseUrl': sandbox.baseUrl,
    'tenantApi.clientId': sandbox.clients.public.clientId,
    // The cluster hosts share the base URL's host name (127.0.0.1 unless started with a host name) on other ports.
    'tenantApi.allowedHosts': [new URL(sandbox.baseUrl).hostname],
    // The sandbox's static resource (an aggregated summary per tenant): listed under each tenant, its answer cached 5 minutes.
    'tenantApi.routes': [{ prefix: SUMMARY_PATH, host: 'cluster', module: 'efat', cacheSeconds: 300 }],
    'tenantApi.endpoints': [{ label: 'Riepilogo', path: SUMMARY_PATH }],
    // The sandbox's own OpenAPI descriptions: its operations in the Tenants view, completion, `?? schema`.
    'tenantApi.catalogues': OPENAPI_DOCUMENTS.map(({ file, host, module }) => ({ source: `${sandbox.baseUrl}/openapi/${file}`, host, ...(module ? { module } : {}) })),
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
    // With --tls: the certificate authority to trust (NODE_EXTRA_CA_CERTS or tenant-api --ca-file), and with --client-certificates the client's files.
    ...(sandbox.tls ? { caFile: sandbox.tls.caFile, ...(sandbox.tls.client ? { clientCertificate: sandbox.tls.client } : {}) } : {}),
  };
}

/** What `npm run sandbox` and `npm start` print; `settingsTitle` says whether the settings are to copy or already in force. */
export function summaryText(sandbox: Sandbox, settingsTitle = 'VS Code settings (settings.json):'): string {
  const lines: string[] = [];
  lines.push('Tenant API sandbox is running.', '');
  lines.push(`  authorization server  ${sandbox.authUrl}   (discovery: ${sandbox.endpoints.discovery})`);
  lines.push(`  base URL              ${sandbox.baseUrl}`);
  sandbox.clusterUrls.forEach((url, i) => lines.push(`  cluster ${i}             ${url}`));
  if (sandbox.tls) {
    lines.push('', `HTTPS: trust the certificate authority in ${sandbox.tls.caFile} (NODE_EXTRA_CA_CERTS=${sandbox.tls.caFile}, or tenant-api --ca-file).`);
    const client = sandbox.tls.client;
    if (client) lines.push(`  Every server asks for a client certificate: ${client.certFile}, key ${client.keyFile} (passphrase ${client.keyPassphrase}).`);
  }
  lines.push('', settingsTitle, '');
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

/** What `npm start`'s summary calls the settings it has put in the editor it opens (editorSettings). */
export const SETTINGS_TITLE = 'The editor opens with these settings (its settings.json):';

/**
 * What a newcomer does in the editor: the README's "Your first request", with the sandbox's users and
 * keys. The extension calls a resource only once its module's licence key is set.
 */
export const NEXT_STEPS = [
  'In the editor, your first request (as in the README):',
  '  1. Sign in: Tenant API: Sign In, as one of the users above (mario.rossi has tenants of two organizations).',
  '  2. Set a licence key: Tenant API: Set Licence Key, once per module (core serves /api/..., efat serves',
  '     /efat/...), with a key above of your tenant\'s organization; then tick the tenants it covers. Until',
  '     then the extension does not call those resources: it says the key is missing and offers Set Licence Key.',
  '  3. Send: open the Tenant API view and click a resource of a tenant, or run Tenant API: Send Request and',
  '     type GET /efat/api/v1/ditte, or press "Send (Tenant API)" above a request of example.http (open in the editor).',
].join('\n');
