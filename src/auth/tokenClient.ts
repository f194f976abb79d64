import { ConnectionProblemError, connectionProblemOf } from '../api/connectionProblems';
import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { registerSecret } from '../common/redact';
import { discoveryProblem } from './discoveryChecks';
import { AuthNetworkError, DiscoveryRejectedError, OAuthError } from './oauthErrors';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** The endpoints we use, from discovery or, failing that, the spec's paths below {auth_url}. */
export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  revocation_endpoint?: string;
  device_authorization_endpoint?: string;
  /** RFC 9207: the server puts `iss` into every authorization response. */
  authorization_response_iss_parameter_supported?: boolean;
  /** false when discovery failed and the spec's paths are assumed. */
  discovered: boolean;
}

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
}

export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

/** The claims of the spec's UserInfo response (section 2.2); which appear depends on the scopes granted. */
export interface UserInfo {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  role?: string[] | string;
  [claim: string]: unknown;
}

export interface TokenClientOptions {
  authUrl: string;
  clientId: string;
  fetch: Fetch;
  logger: Logger;
  /** The client secret from SecretStorage, when the registered client has one. */
  getClientSecret?: () => Promise<string | undefined>;
  /** Per-request time limit (ms). */
  requestTimeoutMs?: number;
}

/** Talks to the authorization server (spec 4.2, 4.3) over an injected fetch. */
export class TokenClient {
  private metadata?: Promise<ProviderMetadata>;
  readonly authUrl: string;

  constructor(private readonly options: TokenClientOptions) {
    this.authUrl = options.authUrl.replace(/\/+$/, '');
  }

  get clientId(): string {
    return this.options.clientId;
  }

  /** Discovery document, cached; a failed discovery falls back to /connect/* and is retried next time. */
  discover(signal?: AbortSignal): Promise<ProviderMetadata> {
    if (!this.metadata) {
      this.metadata = this.loadMetadata(signal);
      this.metadata.then(
        (metadata) => {
          if (!metadata.discovered) this.metadata = undefined;
        },
        () => (this.metadata = undefined),
      );
    }
    return this.metadata;
  }

  private async loadMetadata(signal?: AbortSignal): Promise<ProviderMetadata> {
    const fallback: ProviderMetadata = {
      issuer: this.authUrl,
      authorization_endpoint: `${this.authUrl}/connect/authorize`,
      token_endpoint: `${this.authUrl}/connect/token`,
      userinfo_endpoint: `${this.authUrl}/connect/userinfo`,
      discovered: false,
    };
    const url = `${this.authUrl}/.well-known/openid-configuration`;
    try {
      // Discovery may be redirected: what it says is checked (issuer, endpoints) before use.
      const response = await this.send(url, { headers: { Accept: 'application/json' }, redirect: 'follow' }, signal);
      if (!response.ok) {
        this.options.logger.warn(`Discovery at ${url} answered ${response.status}; using the spec's /connect paths.`);
        return fallback;
      }
      const document = (await response.json()) as Partial<ProviderMetadata>;
      const problem = discoveryProblem(document as Record<string, unknown>, this.authUrl);
      if (problem) {
        this.options.logger.error(`Discovery at ${url} refused: ${problem}`);
        throw new DiscoveryRejectedError(problem);
      }
      return {
        issuer: document.issuer ?? fallback.issuer,
        authorization_endpoint: document.authorization_endpoint ?? fallback.authorization_endpoint,
        token_endpoint: document.token_endpoint ?? fallback.token_endpoint,
        userinfo_endpoint: document.userinfo_endpoint ?? fallback.userinfo_endpoint,
        revocation_endpoint: document.revocation_endpoint,
        device_authorization_endpoint: document.device_authorization_endpoint,
        authorization_response_iss_parameter_supported: document.authorization_response_iss_parameter_supported === true,
        discovered: true,
      };
    } catch (error) {
      // A proxy or certificate problem would stop the fallback's calls too: it is said once, here.
      if (signal?.aborted || error instanceof DiscoveryRejectedError || connectionProblemOf(error)) throw error;
      this.options.logger.warn(`Discovery at ${url} failed (${String(error)}); using the spec's /connect paths.`);
      return fallback;
    }
  }

  exchangeCode(code: string, codeVerifier: string, redirectUri: string, signal?: AbortSignal): Promise<TokenResponse> {
    return this.token({ grant_type: 'authorization_code', code, code_verifier: codeVerifier, redirect_uri: redirectUri }, signal);
  }

  refresh(refreshToken: string, scopes?: readonly string[], signal?: AbortSignal): Promise<TokenResponse> {
    const body: Record<string, string> = { grant_type: 'refresh_token', refresh_token: refreshToken };
    if (scopes?.length) body.scope = scopes.join(' ');
    return this.token(body, signal);
  }

  /** The client credentials grant (a connected app with no user): the runner's sign-in without a person. */
  clientCredentials(scopes: readonly string[], signal?: AbortSignal): Promise<TokenResponse> {
    return this.token({ grant_type: 'client_credentials', ...(scopes.length ? { scope: scopes.join(' ') } : {}) }, signal);
  }

  /** The resource owner password grant, for a test user in CI (spec 4.2 lists it); the password is registered for redaction. */
  passwordGrant(username: string, password: string, scopes: readonly string[], signal?: AbortSignal): Promise<TokenResponse> {
    registerSecret(password);
    return this.token({ grant_type: 'password', username, password, ...(scopes.length ? { scope: scopes.join(' ') } : {}) }, signal);
  }

  /** Token request for the device grant; throws OAuthError (authorization_pending, slow_down, ...) as the server says. */
  pollDeviceToken(deviceCode: string, signal?: AbortSignal): Promise<TokenResponse> {
    return this.token({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode }, signal);
  }

  async startDeviceAuthorization(scopes: readonly string[], extra: Record<string, string> = {}, signal?: AbortSignal): Promise<DeviceAuthorization> {
    const metadata = await this.discover(signal);
    if (!metadata.device_authorization_endpoint) {
      throw new OAuthError('unsupported_grant_type', l10n.t('The authorization server does not offer device code sign-in.'));
    }
    const response = await this.post(metadata.device_authorization_endpoint, { scope: scopes.join(' '), ...extra }, signal);
    const result = (await this.readJson(response)) as DeviceAuthorization;
    registerSecret(result.device_code);
    return result;
  }

  async userInfo(accessToken: string, signal?: AbortSignal): Promise<UserInfo> {
    const metadata = await this.discover(signal);
    const response = await this.send(metadata.userinfo_endpoint, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${accessToken}` },
    }, signal);
    return (await this.readJson(response)) as UserInfo;
  }

  /** Revokes a token where the server offers revocation (RFC 7009). Returns whether it was attempted and accepted. */
  async revoke(token: string, hint: 'refresh_token' | 'access_token'): Promise<boolean> {
    const metadata = await this.discover();
    if (!metadata.revocation_endpoint) return false;
    const response = await this.post(metadata.revocation_endpoint, { token, token_type_hint: hint });
    if (!response.ok) {
      this.options.logger.warn(`Token revocation answered ${response.status}.`);
      return false;
    }
    return true;
  }

  private async token(body: Record<string, string>, signal?: AbortSignal): Promise<TokenResponse> {
    const metadata = await this.discover(signal);
    const response = await this.post(metadata.token_endpoint, body, signal);
    const result = (await this.readJson(response)) as TokenResponse;
    if (typeof result.access_token !== 'string') {
      throw new AuthNetworkError(l10n.t('The authorization server answered without an access token.'));
    }
    registerSecret(result.access_token);
    registerSecret(result.refresh_token);
    registerSecret(result.id_token);
    return result;
  }

  private async post(url: string, fields: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const body = new URLSearchParams({ client_id: this.options.clientId, ...fields });
    const secret = await this.options.getClientSecret?.();
    if (secret) {
      registerSecret(secret);
      body.set('client_secret', secret);
    }
    this.options.logger.debug(`POST ${url} ${fields.grant_type ?? ''}`.trim());
    return this.send(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: body.toString(),
    }, signal);
  }

  /**
   * One request to the authorization server. Only discovery follows redirects: a token, device,
   * revocation or userinfo request carries the code, the verifier, a token or the client secret, and
   * a redirect (a 307/308 keeps the body) could hand them to another host.
   */
  private async send(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(this.options.requestTimeoutMs ?? 30_000);
    let response: Response;
    try {
      response = await this.options.fetch(url, { redirect: 'manual', ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      if (error instanceof ConnectionProblemError) throw new AuthNetworkError(error.message, error);
      throw new AuthNetworkError(l10n.t('Could not reach the authorization server at {0}.', new URL(url).origin), error);
    }
    if (init.redirect !== 'follow' && ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect')) {
      void response.body?.cancel().catch(() => undefined);
      throw new AuthNetworkError(
        l10n.t('The authorization server redirected a sign-in request ({0}); it was not followed, so nothing secret left for another address.', new URL(url).pathname),
      );
    }
    return response;
  }

  /** A JSON body, or an OAuthError carrying the server's error and error_description. */
  private async readJson(response: Response): Promise<unknown> {
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const record = (body ?? {}) as { error?: unknown; error_description?: unknown };
    if (!response.ok || typeof record.error === 'string') {
      if (typeof record.error === 'string') {
        throw new OAuthError(record.error, typeof record.error_description === 'string' ? record.error_description : undefined, response.status);
      }
      throw new AuthNetworkError(l10n.t('The authorization server answered {0} {1}.', response.status, response.statusText));
    }
    if (body === undefined) throw new AuthNetworkError(l10n.t('The authorization server answered with something that is not JSON.'));
    return body;
  }
}
