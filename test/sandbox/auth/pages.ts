// HTML of the sign-in, consent, device and sign-out pages. Plain forms, no script: a browser robot
// fills `#username` / `#password` and clicks `#submit`; a fetch-based test posts the first form.

export type Locale = 'en' | 'it';

const TEXT = {
  en: {
    signInTitle: 'Sign in to Tenant API',
    username: 'User name',
    password: 'Password',
    signIn: 'Sign in',
    cancel: 'Cancel',
    tenantRequested: 'Sign in to the data area',
    consentIntro: (client: string) => `By signing in you allow ${client} to:`,
    consentTitle: 'Allow access',
    consentAccount: 'Signed in as',
    notYou: 'Not you? Sign in with another account',
    allow: 'Allow',
    deny: 'Deny',
    scopes: {
      openid: 'know who you are',
      profile: 'read your name and roles',
      offline_access: 'stay signed in (refresh its access without asking you again)',
      api: 'call the Tenant API on your behalf',
    } as Record<string, string>,
    deviceTitle: 'Connect a device',
    deviceIntro: 'Enter the code shown on your device.',
    deviceBadCode: 'The code you entered is not valid or has expired. Try again.',
    deviceAborted: 'The sign-in request was cancelled.',
    deviceError: 'Something went wrong while processing your request.',
    continue: 'Continue',
    deviceConfirm: (client: string, code: string) => `${client} wants to sign in on a device showing the code ${code}. Continue only if you started this.`,
    deviceDone: 'Sign-in complete. You can close this page and return to your device.',
    logoutTitle: 'Sign out',
    logoutQuestion: 'Do you want to sign out of Tenant API?',
    logoutYes: 'Yes, sign me out',
    logoutNo: 'No, stay signed in',
    loggedOut: 'You are signed out.',
    errorTitle: 'Sign-in error',
  },
  it: {
    signInTitle: 'Accedi a Tenant API',
    username: 'Nome utente',
    password: 'Password',
    signIn: 'Accedi',
    cancel: 'Annulla',
    tenantRequested: "Accesso all'ambiente dati",
    consentIntro: (client: string) => `Accedendo consenti a ${client} di:`,
    consentTitle: "Consenti l'accesso",
    consentAccount: 'Accesso effettuato come',
    notYou: 'Non sei tu? Accedi con un altro account',
    allow: 'Consenti',
    deny: 'Nega',
    scopes: {
      openid: 'sapere chi sei',
      profile: 'leggere il tuo nome e i tuoi ruoli',
      offline_access: 'mantenere l\'accesso (rinnovarlo senza chiedertelo di nuovo)',
      api: 'chiamare Tenant API per tuo conto',
    } as Record<string, string>,
    deviceTitle: 'Collega un dispositivo',
    deviceIntro: 'Inserisci il codice mostrato sul dispositivo.',
    deviceBadCode: 'Il codice inserito non è valido o è scaduto. Riprova.',
    deviceAborted: 'La richiesta di accesso è stata annullata.',
    deviceError: "Si è verificato un errore durante l'elaborazione della richiesta.",
    continue: 'Continua',
    deviceConfirm: (client: string, code: string) => `${client} chiede di accedere da un dispositivo che mostra il codice ${code}. Continua solo se hai avviato tu la richiesta.`,
    deviceDone: 'Accesso completato. Puoi chiudere questa pagina e tornare al dispositivo.',
    logoutTitle: 'Esci',
    logoutQuestion: 'Vuoi uscire da Tenant API?',
    logoutYes: 'Sì, esci',
    logoutNo: 'No, resta connesso',
    loggedOut: 'Sei uscito.',
    errorTitle: "Errore di accesso",
  },
} as const;

export function localeFrom(uiLocales: unknown): Locale {
  if (typeof uiLocales !== 'string') return 'en';
  for (const tag of uiLocales.split(/\s+/)) {
    const lang = tag.toLowerCase().split('-')[0];
    if (lang === 'it') return 'it';
    if (lang === 'en') return 'en';
  }
  return 'en';
}

export function text(locale: Locale) {
  return TEXT[locale];
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f3f4f6;margin:0;padding:40px 12px}
main{max-width:360px;margin:0 auto;background:#fff;padding:24px 28px;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.2)}
h1{font-size:1.4em;font-weight:500;margin-top:0}label{display:block;margin:12px 0 4px}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:8px;font-size:1em}
button{margin-top:16px;padding:8px 14px;font-size:1em;cursor:pointer}
button.primary{background:#1d4ed8;color:#fff;border:0;border-radius:4px;width:100%}
button.secondary{background:none;border:0;color:#555;text-decoration:underline}
.error{color:#b91c1c}.tenant{background:#eef2ff;padding:8px;border-radius:4px}ul{padding-left:20px}`;

export function page(locale: Locale, title: string, body: string, status = 'ok'): string {
  return `<!DOCTYPE html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body data-sandbox-page="${escapeHtml(status)}"><main>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

function errorBlock(message: string | undefined): string {
  return message ? `<p class="error" id="error" role="alert">${escapeHtml(message)}</p>` : '';
}

function scopeList(locale: Locale, scopes: string[]): string {
  const t = text(locale);
  const items = scopes.filter((s) => t.scopes[s]).map((s) => `<li data-scope="${escapeHtml(s)}">${escapeHtml(t.scopes[s])}</li>`);
  return items.length ? `<ul id="scopes">${items.join('')}</ul>` : '';
}

export interface LoginPageInput {
  locale: Locale;
  uid: string;
  clientName: string;
  loginHint?: string;
  tenantLabel?: string;
  consentScopes: string[];
  error?: string;
}

export function loginPage(p: LoginPageInput): string {
  const t = text(p.locale);
  const tenant = p.tenantLabel ? `<p class="tenant" id="tenant">${escapeHtml(t.tenantRequested)}: <strong>${escapeHtml(p.tenantLabel)}</strong></p>` : '';
  const consent = p.consentScopes.length ? `<p>${escapeHtml(t.consentIntro(p.clientName))}</p>${scopeList(p.locale, p.consentScopes)}` : '';
  return page(p.locale, t.signInTitle, `${errorBlock(p.error)}${tenant}
<form id="login" method="post" action="/interaction/${escapeHtml(p.uid)}/login" autocomplete="off">
<label for="username">${escapeHtml(t.username)}</label>
<input type="text" id="username" name="username" value="${escapeHtml(p.loginHint ?? '')}" ${p.loginHint ? '' : 'autofocus'} required>
<label for="password">${escapeHtml(t.password)}</label>
<input type="password" id="password" name="password" ${p.loginHint ? 'autofocus' : ''} required>
${consent}
<button type="submit" id="submit" class="primary">${escapeHtml(t.signIn)}</button>
</form>
<form id="abort" method="post" action="/interaction/${escapeHtml(p.uid)}/abort">
<button type="submit" id="cancel" class="secondary">${escapeHtml(t.cancel)}</button>
</form>`, p.error ? 'login-error' : 'login');
}

/** `account`: who the browser is signed in as, so the user can tell whether it is them; `switchUrl` signs in anew. */
export function consentPage(p: { locale: Locale; uid: string; clientName: string; scopes: string[]; account?: { name: string; username: string }; switchUrl?: string }): string {
  const t = text(p.locale);
  const account = p.account
    ? `<p id="account">${escapeHtml(t.consentAccount)} <strong>${escapeHtml(p.account.name)}</strong> (${escapeHtml(p.account.username)})</p>`
    : '';
  const switchAccount = p.switchUrl ? `<p><a id="switch-account" href="${escapeHtml(p.switchUrl)}">${escapeHtml(t.notYou)}</a></p>` : '';
  return page(p.locale, t.consentTitle, `${account}<p>${escapeHtml(t.consentIntro(p.clientName))}</p>${scopeList(p.locale, p.scopes)}
<form id="consent" method="post" action="/interaction/${escapeHtml(p.uid)}/consent">
<input type="hidden" name="consent" value="allow">
<button type="submit" id="submit" class="primary">${escapeHtml(t.allow)}</button>
</form>
<form id="abort" method="post" action="/interaction/${escapeHtml(p.uid)}/abort">
<button type="submit" id="cancel" class="secondary">${escapeHtml(t.deny)}</button>
</form>${switchAccount}`, 'consent');
}

export function errorPage(locale: Locale, error: string, description: string | undefined): string {
  const t = text(locale);
  return page(locale, t.errorTitle, `<p class="error" id="error" role="alert"><code>${escapeHtml(error)}</code>${description ? `: ${escapeHtml(description)}` : ''}</p>`, 'error');
}
