/**
 * The SecretStorage names of sign-in data (the layout is described in src/auth/sessionStore.ts). Here,
 * below src/auth and src/settings, because the settings' migration of secrets into environments moves them too.
 */
export const SESSIONS_INDEX_KEY = 'tenantApi.auth.sessions';
export const SESSION_KEY_PREFIX = 'tenantApi.auth.session/';
export const CLIENT_SECRET_KEY = 'tenantApi.auth.clientSecret';
