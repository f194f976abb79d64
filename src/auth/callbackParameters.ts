/**
 * Reading the parameters of a sign-in callback so that a code, state or iss containing `+`, `/`, `=`
 * or a percent sign arrives unchanged, whichever way it reached the extension.
 *
 * - `encoded`: a query as the browser sent it (the loopback server's request URL) or as the web
 *   editor's callback page re-encodes it (`URLSearchParams.toString()`, vscode callback.html).
 * - `decoded`: VS Code desktop's `uri.query`: `URI.parse` has already percent-decoded it once, so
 *   decoding again (as `new URLSearchParams(uri.query)` does) would turn `+` into a space and a
 *   value's own `%2B` into `+`. Only `&` inside a value cannot be told apart there (it arrives as a
 *   separator); OAuth codes, our state and issuer URLs do not contain it.
 *
 * `+` stays `+` in code, state and iss: they never contain a space, while a server that does not
 * encode a base64 `+` is common. Human-readable parameters (error_description) keep the form rule.
 */
export type CallbackQueryEncoding = 'encoded' | 'decoded';

/** Parameters whose `+` is a plus sign, never a space. */
const OPAQUE_PARAMETERS = new Set(['code', 'state', 'iss']);

export function parseCallbackQuery(query: string, encoding: CallbackQueryEncoding): URLSearchParams {
  const parameters = new URLSearchParams();
  for (const part of query.replace(/^\?/, '').split('&')) {
    if (!part) continue;
    const separator = part.indexOf('=');
    const rawName = separator < 0 ? part : part.slice(0, separator);
    const rawValue = separator < 0 ? '' : part.slice(separator + 1);
    const name = encoding === 'encoded' ? formDecode(rawName) : rawName;
    const opaque = OPAQUE_PARAMETERS.has(name);
    let value: string;
    if (encoding === 'decoded') value = opaque ? rawValue : rawValue.replace(/\+/g, ' ');
    else value = opaque ? percentDecode(rawValue) : formDecode(rawValue);
    parameters.append(name, value);
  }
  return parameters;
}

function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray % is kept as it is
  }
}

function formDecode(text: string): string {
  return percentDecode(text.replace(/\+/g, ' '));
}
