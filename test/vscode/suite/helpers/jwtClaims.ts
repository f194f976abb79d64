// The payload of a JWT (id_token, access token), read without checking its signature: the tests only
// look at what the authorization server put in tokens the extension already validated or the API accepted.
export function jwtClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1];
  if (!payload) throw new Error('not a JWT');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** The `sub` of the bearer token in an Authorization header value. */
export function bearerSubject(authorization: string | undefined): unknown {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  return token ? jwtClaims(token).sub : undefined;
}
