// Which redirect_uri values the public client may use, beyond what oidc-provider checks itself
// (its registered loopback URI on any port, RFC 8252 7.3, for a native client).

export interface RedirectRules {
  /** Exact matches (the vscode, vscode-insiders and code-oss callbacks and options.extraRedirectUris). */
  exact: string[];
  /** Development only: accepted when the redirect_uri starts with one of these. */
  prefixes: string[];
}

export function redirectAllowedByRules(value: string, rules: RedirectRules): boolean {
  if (rules.exact.includes(value)) return true;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return false;
  }
  if (parsed.hash) return false;
  return rules.prefixes.some((prefix) => prefix !== '' && value.startsWith(prefix));
}
