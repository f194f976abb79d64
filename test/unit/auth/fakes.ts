import * as sinon from 'sinon';
import type { StoredSession } from '../../../src/auth/sessionStore';
import type { TokenClient, TokenResponse } from '../../../src/auth/tokenClient';
import type { Logger } from '../../../src/common/logger';

/** A JWT with the given claims and a dummy signature (the client does not verify signatures). */
export function unsignedJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(claims)}.c2lnbmF0dXJl`;
}

export function session(id: string, overrides: Partial<StoredSession> = {}): StoredSession {
  return {
    version: 1,
    account: { id, label: `User ${id}`, roles: ['reader'] },
    accessToken: `at-${id}-0`,
    refreshToken: `rt-${id}-0`,
    idToken: undefined,
    expiresAt: Date.now() + 300_000,
    scopes: ['openid', 'offline_access', 'api'],
    updatedAt: Date.now(),
    authUrl: 'http://auth.test',
    clientId: 'tenant-api-workbench',
    ...overrides,
  };
}

export interface FakeTokenClient {
  client: TokenClient;
  refresh: sinon.SinonStub<[string, (readonly string[])?, AbortSignal?], Promise<TokenResponse>>;
  revoke: sinon.SinonStub<[string, 'refresh_token' | 'access_token'], Promise<boolean>>;
}

/** A token client whose refresh issues at-<n>/rt-<n> pairs with rotation, unless stubbed otherwise. */
export function fakeTokenClient(): FakeTokenClient {
  let counter = 0;
  const refresh = sinon.stub<[string, (readonly string[])?, AbortSignal?], Promise<TokenResponse>>().callsFake(async () => {
    counter++;
    return { access_token: `at-new-${counter}`, refresh_token: `rt-new-${counter}`, token_type: 'Bearer', expires_in: 300 };
  });
  const revoke = sinon.stub<[string, 'refresh_token' | 'access_token'], Promise<boolean>>().resolves(true);
  const client = { refresh, revoke, clientId: 'tenant-api-workbench', authUrl: 'http://auth.test' } as unknown as TokenClient;
  return { client, refresh, revoke };
}

export interface RecordingLogger extends Logger {
  lines: string[];
}

export function recordingLogger(): RecordingLogger {
  const lines: string[] = [];
  const record = (level: string) => (message: string | Error, ...args: unknown[]) =>
    void lines.push(`${level} ${String(message)} ${args.map(String).join(' ')}`.trim());
  return { lines, trace: record('trace'), debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
}
