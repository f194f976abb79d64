// The sign-in and consent pages behind oidc-provider's interactions (/interaction/<uid>).
import type { IncomingMessage, ServerResponse } from 'node:http';

import { API_SCOPE } from '../seed';
import { consentPage, errorPage, loginPage, localeFrom, type Locale } from './pages';
import { OIDC_SCOPES, requestedTenant, type Provider, type ProviderSetup } from './provider';

const MAX_FORM_BYTES = 16 * 1024;

export interface TenantLabel { id: string; codiceAmbienteDati: string; descrizioneAmbienteDati: string }

export function createInteractionHandler(provider: Provider, setup: ProviderSetup, tenants: TenantLabel[]) {
  return async function handleInteraction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', setup.issuer);
    const match = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|consent|abort|switch))?$/.exec(url.pathname);
    if (!match) return send(res, 404, errorPage('en', 'not_found', 'No such sign-in page.'));
    const action = match[2];

    let details: Awaited<ReturnType<Provider['interactionDetails']>>;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      return send(res, 400, errorPage('en', 'session_not_found',
        'This sign-in page has expired or its cookie is missing. Start the sign-in again from the application.'));
    }
    if (details.uid !== match[1]) {
      return send(res, 400, errorPage('en', 'interaction_mismatch', 'This sign-in page does not belong to the current sign-in attempt.'));
    }
    const params = details.params as Record<string, string | undefined>;
    const locale: Locale = localeFrom(params.ui_locales);
    const client = await provider.Client.find(String(params.client_id));
    const clientName = client?.clientName ?? String(params.client_id);
    const requestedScopes = (params.scope ?? '').split(' ').filter((s) => OIDC_SCOPES.includes(s) || s === API_SCOPE);
    const tenantId = requestedTenant(params.acr_values);
    const tenant = tenantId ? tenants.find((t) => t.id === tenantId) : undefined;
    const tenantLabel = tenantId ? (tenant ? `${tenant.descrizioneAmbienteDati} (${tenant.codiceAmbienteDati})` : tenantId) : undefined;

    // `username`: what the user typed, kept after a refused attempt so that only the password is typed again.
    const renderLogin = (status: number, error?: string, username?: string) => send(res, status, loginPage({
      locale, uid: details.uid, clientName, loginHint: username || params.login_hint, tenantLabel, consentScopes: requestedScopes, error,
    }));

    try {
      if (req.method === 'GET' && !action) {
        if (details.prompt.name === 'login') return renderLogin(200);
        // Name the account the browser is signed in as: the user must see who they allow access for.
        const user = setup.users.find((candidate) => candidate.sub === details.session?.accountId);
        return send(res, 200, consentPage({
          locale, uid: details.uid, clientName, scopes: requestedScopes,
          account: user ? { name: user.name, username: user.username } : undefined,
          switchUrl: `/interaction/${details.uid}/switch`,
        }));
      }
      // "Not you?" on the consent page: the login form, whose submission signs in that account instead.
      if (req.method === 'GET' && action === 'switch') return renderLogin(200);
      if (req.method !== 'POST' || !action || action === 'switch') {
        res.setHeader('Allow', 'GET, POST');
        return send(res, 405, errorPage(locale, 'method_not_allowed', 'Use the form on this page.'));
      }
      const form = await readForm(req);
      if (form === undefined) return send(res, 400, errorPage(locale, 'invalid_request', 'The form data could not be read (too large or not URL-encoded).'));

      if (action === 'abort') {
        await provider.interactionFinished(req, res, {
          error: 'access_denied', error_description: 'The user cancelled the sign-in.',
        }, { mergeWithLastSubmission: false });
        return;
      }

      if (action === 'login') {
        const username = form.get('username') ?? '';
        const password = form.get('password') ?? '';
        const user = setup.users.find((u) => u.username === username);
        if (!user || user.password !== password) {
          return renderLogin(401, locale === 'it' ? 'Nome utente o password non corretti.' : 'The user name or password is not correct.', username);
        }
        if (tenantId && !user.tenantIds.includes(tenantId)) {
          return renderLogin(403, locale === 'it'
            ? `L'utente ${username} non ha accesso all'ambiente dati ${tenantLabel}.`
            : `The user ${username} has no access to the data area ${tenantLabel}.`, username);
        }
        // The login page states what the client may do, so signing in also grants it.
        const sameAccount = details.session?.accountId === user.sub;
        const grantId = await saveGrant(sameAccount ? details.grantId : undefined, user.sub, String(params.client_id), requestedScopes);
        await provider.interactionFinished(req, res, {
          login: { accountId: user.sub, acr: tenantId ? `tenant:${tenantId}` : undefined, amr: ['pwd'], remember: true },
          consent: { grantId },
        }, { mergeWithLastSubmission: false });
        return;
      }

      // consent
      if (!details.session?.accountId) return renderLogin(400);
      const grantId = await saveGrant(details.grantId, details.session.accountId, String(params.client_id), requestedScopes);
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (err) {
      if (setup.logErrors) console.error('[sandbox auth] interaction failed', err);
      if (!res.headersSent) send(res, 500, errorPage(locale, 'server_error', 'The sign-in page failed. Start the sign-in again.'));
    }
  };

  async function saveGrant(existingId: string | undefined, accountId: string, clientId: string, scopes: string[]): Promise<string> {
    const grant = (existingId ? await provider.Grant.find(existingId) : undefined) ?? new provider.Grant({ accountId, clientId });
    const oidcScopes = scopes.filter((s) => OIDC_SCOPES.includes(s));
    if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(' '));
    grant.addOIDCClaims(['sub', 'tenant', 'name', 'given_name', 'family_name', 'role']);
    if (scopes.includes(API_SCOPE)) grant.addResourceScope(setup.audience, API_SCOPE);
    return grant.save();
  }
}

function send(res: ServerResponse, status: number, html: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(html);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
