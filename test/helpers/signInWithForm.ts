// Plays the browser through the sandbox's sign-in pages with fetch: follows redirects by hand,
// keeps cookies, fills the forms (username/password, consent, device code), and stops when the
// authorization server redirects away from itself (to the client's redirect_uri).
//
//   const { redirectedTo } = await signInWithForm(authorizeUrl, { username, password });
//   redirectedTo.searchParams.get('code')
//
// Use a FormBrowser directly to keep the session between sign-ins (prompt=none, max_age, ...).

export interface FormCredentials {
  username: string;
  password: string;
}

export interface SignInOptions {
  /** Click Cancel / Deny instead of signing in or allowing. */
  deny?: boolean;
  /** Safety limit of requests for one sign-in. */
  maxSteps?: number;
  /** Sees each sign-in or consent page before it is submitted (its data-sandbox-page marker and HTML). */
  onPage?: (page: string, html: string) => void;
}

export interface SignInResult {
  /** Where the authorization server sent the browser (outside its own origin). */
  redirectedTo: URL;
  /** query + fragment parameters of redirectedTo, or the fields of a form_post response. */
  params: URLSearchParams;
  /** The fields when the response came as response_mode=form_post. */
  formPost?: URLSearchParams;
}

export interface DeviceApprovalResult {
  /** The final page's marker (data-sandbox-page), e.g. 'device-done'. */
  page: string;
  html: string;
}

export class SignInError extends Error {
  constructor(message: string, readonly status: number, readonly page: string, readonly html: string) {
    super(message);
    this.name = 'SignInError';
  }
}

interface FormInfo {
  id?: string;
  action: string;
  method: string;
  fields: Array<{ name: string; value: string; type: string }>;
}

interface PageResponse {
  kind: 'page';
  url: URL;
  status: number;
  html: string;
}

export class FormBrowser {
  /** Cookies per host:port, name -> value. */
  readonly cookies = new Map<string, Map<string, string>>();
  private readonly fetchImpl: typeof fetch;

  constructor(fetchImpl: typeof fetch = fetch) {
    this.fetchImpl = fetchImpl;
  }

  /** Signs in through the authorize URL; resolves with the redirect to the client. */
  async signIn(authorizeUrl: string | URL, credentials?: FormCredentials, options: SignInOptions = {}): Promise<SignInResult> {
    const origin = new URL(authorizeUrl).origin;
    let step = await this.go(new URL(authorizeUrl), origin, 'GET');
    let submittedLogin = false;
    for (let i = 0; i < (options.maxSteps ?? 20); i++) {
      if (step.kind === 'redirect') return step.result;
      const page = pageMarker(step.html);
      const forms = parseForms(step.html);
      if (page) options.onPage?.(page, step.html);
      if (page === 'login' || page === 'login-error') {
        if (page === 'login-error' && submittedLogin) {
          throw new SignInError(`Sign-in refused (${step.status}): ${errorText(step.html)}`, step.status, page, step.html);
        }
        if (options.deny) {
          step = await this.submit(requireForm(forms, 'abort', step), step.url, origin, {});
          continue;
        }
        if (!credentials) throw new SignInError('The sign-in page was shown but no credentials were given.', step.status, page, step.html);
        submittedLogin = true;
        step = await this.submit(requireForm(forms, 'login', step), step.url, origin, credentials as unknown as Record<string, string>);
        continue;
      }
      if (page === 'consent') {
        step = await this.submit(requireForm(forms, options.deny ? 'abort' : 'consent', step), step.url, origin, {});
        continue;
      }
      const pageUrl = step.url;
      if (!page && isAutoSubmit(step.html, forms) && new URL(forms[0].action, pageUrl).origin === origin) {
        step = await this.submit(forms[0], pageUrl, origin, {});
        continue;
      }
      const formPost = forms.find((f) => f.method === 'POST' && new URL(f.action, pageUrl).origin !== origin);
      if (formPost) {
        const fields = new URLSearchParams(formPost.fields.map((f) => [f.name, f.value]));
        return { redirectedTo: new URL(formPost.action, pageUrl), params: fields, formPost: fields };
      }
      throw new SignInError(`The authorization server showed ${page || 'an unexpected page'} (${step.status}): ${errorText(step.html)}`, step.status, page, step.html);
    }
    throw new Error('Too many steps while signing in.');
  }

  /** Approves a device code through the verification page (verification_uri_complete, or verification_uri plus userCode). */
  async approveDevice(verificationUri: string | URL, credentials: FormCredentials, userCode?: string, options: SignInOptions = {}): Promise<DeviceApprovalResult> {
    const origin = new URL(verificationUri).origin;
    let step = await this.go(new URL(verificationUri), origin, 'GET');
    let submittedLogin = false;
    for (let i = 0; i < (options.maxSteps ?? 20); i++) {
      if (step.kind === 'redirect') throw new Error(`Unexpected redirect to ${step.result.redirectedTo.href} during device approval.`);
      const page = pageMarker(step.html);
      const forms = parseForms(step.html);
      switch (page) {
        case 'device-input':
          step = await this.submit(forms[0], step.url, origin, userCode ? { user_code: userCode } : {});
          continue;
        case 'device-confirm':
          step = await this.submit(forms[0], step.url, origin, options.deny ? { abort: 'yes' } : {});
          continue;
        case 'login':
        case 'login-error':
          if (page === 'login-error' && submittedLogin) {
            throw new SignInError(`Sign-in refused (${step.status}): ${errorText(step.html)}`, step.status, page, step.html);
          }
          submittedLogin = true;
          step = await this.submit(requireForm(forms, 'login', step), step.url, origin, credentials as unknown as Record<string, string>);
          continue;
        case 'consent':
          step = await this.submit(requireForm(forms, 'consent', step), step.url, origin, {});
          continue;
        default:
          if (!page && isAutoSubmit(step.html, forms)) {
            step = await this.submit(forms[0], step.url, origin, {});
            continue;
          }
          if (page === 'device-error' || page === 'error') {
            throw new SignInError(`Device approval failed (${step.status}): ${errorText(step.html)}`, step.status, page, step.html);
          }
          return { page, html: step.html };
      }
    }
    throw new Error('Too many steps while approving the device.');
  }

  private async submit(form: FormInfo, base: URL, origin: string, values: Record<string, string>): Promise<PageResponse | { kind: 'redirect'; result: SignInResult }> {
    const body = new URLSearchParams();
    for (const field of form.fields) body.append(field.name, values[field.name] ?? field.value);
    for (const [name, value] of Object.entries(values)) if (!form.fields.some((f) => f.name === name)) body.append(name, value);
    return this.go(new URL(form.action || base.href, base), origin, form.method, body);
  }

  private async go(url: URL, origin: string, method: string, body?: URLSearchParams): Promise<PageResponse | { kind: 'redirect'; result: SignInResult }> {
    let current = url;
    let currentMethod = method;
    let currentBody = body;
    for (let hops = 0; hops < 20; hops++) {
      if (current.origin !== origin) return { kind: 'redirect', result: redirectResult(current) };
      const headers: Record<string, string> = {};
      const jar = this.cookies.get(current.host);
      if (jar?.size) headers.cookie = [...jar].map(([n, v]) => `${n}=${v}`).join('; ');
      if (currentBody) headers['content-type'] = 'application/x-www-form-urlencoded';
      const res = await this.fetchImpl(current, { method: currentMethod, headers, body: currentBody?.toString(), redirect: 'manual' });
      this.storeCookies(current, res);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.arrayBuffer();
        current = new URL(location, current);
        if (res.status !== 307 && res.status !== 308) {
          currentMethod = 'GET';
          currentBody = undefined;
        }
        continue;
      }
      return { kind: 'page', url: current, status: res.status, html: await res.text() };
    }
    throw new Error('Too many redirects.');
  }

  private storeCookies(url: URL, res: Response): void {
    const setCookies = typeof res.headers.getSetCookie === 'function' ? res.headers.getSetCookie() : [];
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let jar = this.cookies.get(url.host);
      if (!jar) this.cookies.set(url.host, (jar = new Map()));
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }
}

/** Signs in with a fresh browser (no session): the usual one-liner for tests. */
export function signInWithForm(authorizeUrl: string | URL, credentials: FormCredentials, options?: SignInOptions): Promise<SignInResult> {
  return new FormBrowser().signIn(authorizeUrl, credentials, options);
}

function redirectResult(url: URL): SignInResult {
  const params = new URLSearchParams(url.search);
  if (url.hash.length > 1) for (const [k, v] of new URLSearchParams(url.hash.slice(1))) params.append(k, v);
  return { redirectedTo: url, params };
}

function decode(value: string): string {
  return value
    .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&');
}

function attribute(attrs: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attrs);
  return m ? decode(m[2] ?? m[3] ?? m[4] ?? '') : undefined;
}

function parseForms(html: string): FormInfo[] {
  const forms: FormInfo[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const fields: FormInfo['fields'] = [];
    for (const input of m[2].matchAll(/<input\b([^>]*)>/gi)) {
      const name = attribute(input[1], 'name');
      if (name) fields.push({ name, value: attribute(input[1], 'value') ?? '', type: (attribute(input[1], 'type') ?? 'text').toLowerCase() });
    }
    forms.push({ id: attribute(m[1], 'id'), action: attribute(m[1], 'action') ?? '', method: (attribute(m[1], 'method') ?? 'GET').toUpperCase(), fields });
  }
  return forms;
}

function requireForm(forms: FormInfo[], id: string, page: PageResponse): FormInfo {
  const form = forms.find((f) => f.id === id);
  if (!form) throw new SignInError(`The page has no form "${id}".`, page.status, pageMarker(page.html), page.html);
  return form;
}

/** oidc-provider's self-submitting pages (form_post, device code hand-over) submit their only form by script. */
function isAutoSubmit(html: string, forms: FormInfo[]): boolean {
  return forms.length === 1 && forms[0].method === 'POST' && /forms\[0\]\.submit\(\)/.test(html);
}

function pageMarker(html: string): string {
  return /data-sandbox-page="([^"]*)"/.exec(html)?.[1] ?? '';
}

function errorText(html: string): string {
  const m = /id="error"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  const text = (m ? m[1] : html).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  return decode(text).slice(0, 300);
}
