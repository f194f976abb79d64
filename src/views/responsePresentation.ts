/**
 * What a response tab says about its request, as plain data: what selected the data (a tenant, the
 * licence key's organization, or the signed-in user), the tab's title, and which tab it goes to. No
 * `vscode` here; responseDocuments.ts shows it.
 */
import * as l10n from '../common/l10n';
import { redactedMark } from '../common/redact';
import { isSecretHeader } from '../api/requestHeaders';
import type { DataSelector } from '../api/dataSelector';

// What selected the data is the client's concept (src/api/dataSelector.ts); the views only word it.
export { dataSelector, type DataSelector, type SelectorTenant } from '../api/dataSelector';

/** The name that stands for the data's owner: the tenant's code, the key's organization (else its label). */
export function selectorName(selector: DataSelector): string | undefined {
  switch (selector.kind) {
    case 'tenant':
      return selector.tenant.codiceAmbienteDati || selector.tenant.id;
    case 'licenceKey':
      return selector.licence?.organization || selector.licence?.label || undefined;
    case 'user':
      return undefined;
  }
}

/** The header block's line that says whose data the response holds. */
export function selectorLine(selector: DataSelector): string {
  switch (selector.kind) {
    case 'tenant': {
      const { tenant } = selector;
      return l10n.t('Tenant: {0} ({1}) {2}', tenant.descrizioneAmbienteDati, tenant.codiceAmbienteDati, tenant.id);
    }
    case 'licenceKey': {
      const { licence, module } = selector;
      if (!licence?.organization && !licence?.label) {
        return l10n.t('Data of the organization that holds the licence key of the module {0} (no tenant is sent)', module);
      }
      return l10n.t(
        "Data of the licence key's organization: {0} (key {1}, module {2}; no tenant is sent)",
        licence.organization || licence.label || '',
        licence.label || module,
        module,
      );
    }
    case 'user':
      return l10n.t('Data of the signed-in user (only the sign-in is sent, no tenant and no licence key)');
  }
}

/**
 * `GET ditte · RC-MI · 200`: method, the request's name (a request file's `# @name`) or else its
 * path's last segment, whose data, status (none when no answer came). Send Request and request files
 * title their tabs with it; the response tabs add the environment when it is not the default.
 */
export function responseTitle(method: string, path: string, selector: DataSelector | undefined, status: number | undefined, name?: string): string {
  const owner = selector && selectorName(selector);
  return tabTitle([`${method.toUpperCase()} ${name ?? lastSegment(path)}`, owner, status === undefined ? undefined : String(status)]);
}

/** A tab's title from its parts (empty ones left out), with no character a document name cannot hold. */
export function tabTitle(parts: ReadonlyArray<string | undefined>): string {
  const joined = parts.filter((part) => part !== undefined && part !== '').join(' · ');
  return joined.replace(/[\\/:*?"<>|#%]+/g, ' ').replace(/ {2,}/g, ' ').trim() || 'response';
}

export function lastSegment(path: string): string {
  const segments = path.split('?')[0].split('/').filter(Boolean);
  return segments[segments.length - 1] ?? path;
}

/** The parts of a request that make it "the same request" for its response tab. */
export interface TabRequest {
  method: string;
  path: string;
  /** The tenant the request named: part of the key only when it selects the data (see below). */
  tenantId?: string;
  query?: Record<string, string>;
  bodyText?: string;
  headers?: Record<string, string>;
}

/** The key of the tab used when every response shares one tab (tenantApi.responses.tabPerRequest off). */
export const SINGLE_RESPONSE_TAB = 'response';

/**
 * Which tab a response goes to. One per different request: method, path, query, body, extra headers,
 * and the tenant only when it selects the data (a base-URL resource opened under two tenants is one
 * request). A secret header counts by its name, so its value is not kept here. With `tabPerRequest`
 * off, every response goes to the one tab.
 */
export function responseTabKey(request: TabRequest, selector: DataSelector, tabPerRequest: boolean): string {
  if (!tabPerRequest) return SINGLE_RESPONSE_TAB;
  const sorted = (record: Record<string, string> | undefined, headers: boolean) =>
    Object.entries(record ?? {})
      .map(([name, value]): [string, string] => (headers ? [name.toLowerCase(), isSecretHeader(name) ? '' : value] : [name, value]))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([
    request.method.toUpperCase(),
    request.path,
    selector.kind === 'tenant' ? selector.tenant.id : '',
    sorted(request.query, false),
    request.bodyText ?? '',
    sorted(request.headers, true),
  ]);
}

/**
 * A request header's value as the response tab shows it: a secret header (by the one rule,
 * isSecretHeader) shows `[redacted]`, as the redactor writes it, keeping the key's label that the
 * client's own mask names (`*** (Rossi core)`).
 */
export function shownHeaderValue(name: string, value: string): string {
  if (!isSecretHeader(name)) return value;
  const label = /^\*\*\* (\([^)]*\))$/.exec(value);
  return label ? `${redactedMark()} ${label[1]}` : redactedMark();
}

/** The body as the client sends it (src/api/requestPreparation encodes it so): a string as is, else JSON. */
export function sentBodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}
