import { jwtDecode } from 'jwt-decode';

// The payload of a JWT (id_token, access token), read without checking its signature (jwt-decode, as
// src/auth/idToken.ts does): the tests only look at what the authorization server put in tokens the
// extension already validated or the API accepted.
export function jwtClaims(token: string): Record<string, unknown> {
  return jwtDecode<Record<string, unknown>>(token);
}

/** The `sub` of the bearer token in an Authorization header value. */
export function bearerSubject(authorization: string | undefined): unknown {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  return token ? jwtClaims(token).sub : undefined;
}
