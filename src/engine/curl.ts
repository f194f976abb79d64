/**
 * Copy as cURL for a request of a file: the address the client would call, the headers it would add
 * (token and licence key as masked shell variables, see src/commands/curlCommand.ts), the body.
 */
import { needsTenant } from '../api/routes';
import type { RouteRule, TenantRecord } from '../api/types';
import { buildCurlCommand } from '../commands/curlCommand';
import type { PreparedRequest } from './prepare';

export interface CurlTarget {
  baseUrl: string;
  route?: RouteRule;
  tenant?: TenantRecord;
}

export function curlForPrepared(prepared: PreparedRequest, target: CurlTarget): string {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let url: string;
  if (prepared.target.kind === 'absolute') {
    url = prepared.target.url.href;
  } else {
    const origin = target.route?.host === 'cluster' ? (target.tenant?.clusterAddress ?? '') : target.baseUrl;
    url = origin.replace(/\/+$/, '') + prepared.target.path;
    headers.Authorization = 'Bearer';
    if (target.route?.module) headers['Authorization-Key'] = '';
    if (target.route?.tenantScoped && needsTenant(target.route) && target.tenant) headers['User-Tenant'] = target.tenant.id;
  }
  if (prepared.body !== undefined) headers['Content-Type'] = 'application/json';
  Object.assign(headers, prepared.headers);
  let command = buildCurlCommand({ method: prepared.method, url, headers, body: prepared.body });
  for (const secret of prepared.secrets) command = command.split(secret).join('***');
  return command;
}
