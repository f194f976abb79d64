/**
 * The cURL options a pasted command may hold, one row each: its names, whether it takes a value, and
 * what it does to the request being built. Options that only change curl's own output or transport
 * (-s, -v, -L, -o FILE, -m SECONDS...) take their value and change nothing. No `vscode` here.
 */
import * as l10n from '../../common/l10n';

/** The request as the options build it, before it is written as a request file. */
export interface CurlDraft {
  method?: string;
  urls: string[];
  headers: Array<[string, string]>;
  /** -d and its kinds, in order. */
  data: Array<{ kind: 'ascii' | 'binary' | 'raw' | 'urlencode' | 'json'; value: string }>;
  /** -F text fields (file parts are named in notes, not kept). */
  form: Array<[string, string]>;
  /** -G: the data goes into the query. */
  dataInQuery: boolean;
  head: boolean;
  /** --url-query parts. */
  query: string[];
  /** What was dropped or changed, one sentence each. */
  notes: string[];
}

interface CurlOption {
  names: string[];
  value: boolean;
  apply?(draft: CurlDraft, value: string, name: string): void;
}

const credentialsDropped = (what: string) => l10n.t('{0} was dropped: the extension signs in and adds the token and licence key itself.', what);

function formField(draft: CurlDraft, value: string, literal: boolean): void {
  const equals = value.indexOf('=');
  if (equals < 0) {
    draft.notes.push(l10n.t('-F {0} has no "name=value": ignored.', value));
    return;
  }
  const name = value.slice(0, equals);
  const content = value.slice(equals + 1);
  if (!literal && (content.startsWith('@') || content.startsWith('<'))) {
    draft.notes.push(l10n.t('The form field {0} sends the file {1}: file parts are not imported, add it by hand.', name, content.slice(1).split(';')[0]));
    return;
  }
  draft.form.push([name, literal ? content : content.replace(/;type=[^;]*$/, '')]);
}

const data = (kind: CurlDraft['data'][number]['kind']) => (draft: CurlDraft, value: string) => void draft.data.push({ kind, value });
const header = (name: string) => (draft: CurlDraft, value: string) => void draft.headers.push([name, value]);
const ignoredWithNote = (note: () => string) => (draft: CurlDraft) => void draft.notes.push(note());

/** The table. Options missing from it are named in a note and ignored (one that takes a value may then be misread: the note says so). */
export const CURL_OPTIONS: readonly CurlOption[] = [
  { names: ['-X', '--request'], value: true, apply: (draft, value) => void (draft.method = value.toUpperCase()) },
  { names: ['--url'], value: true, apply: (draft, value) => void draft.urls.push(value) },
  {
    names: ['-H', '--header'],
    value: true,
    apply: (draft, value) => {
      if (value.startsWith('@')) draft.notes.push(l10n.t('-H {0} reads headers from a file: not imported.', value));
      // `Name:` with nothing after it removes one of curl's own headers: there is nothing to write.
      else if (!/^[^:;]+:\s*$/.test(value)) draft.headers.push(splitHeader(value));
    },
  },
  { names: ['-d', '--data', '--data-ascii'], value: true, apply: data('ascii') },
  { names: ['--data-binary'], value: true, apply: data('binary') },
  { names: ['--data-raw'], value: true, apply: data('raw') },
  { names: ['--data-urlencode'], value: true, apply: data('urlencode') },
  { names: ['--json'], value: true, apply: data('json') },
  { names: ['-F', '--form'], value: true, apply: (draft, value) => formField(draft, value, false) },
  { names: ['--form-string'], value: true, apply: (draft, value) => formField(draft, value, true) },
  { names: ['-G', '--get'], value: false, apply: (draft) => void (draft.dataInQuery = true) },
  { names: ['--url-query'], value: true, apply: (draft, value) => void draft.query.push(value) },
  { names: ['-I', '--head'], value: false, apply: (draft) => void (draft.head = true) },
  { names: ['-A', '--user-agent'], value: true, apply: header('User-Agent') },
  { names: ['-e', '--referer'], value: true, apply: header('Referer') },
  { names: ['-u', '--user'], value: true, apply: ignoredWithNote(() => credentialsDropped(l10n.t('-u (a user and password)'))) },
  { names: ['--oauth2-bearer'], value: true, apply: ignoredWithNote(() => credentialsDropped('--oauth2-bearer')) },
  { names: ['--basic', '--digest', '--ntlm', '--negotiate', '--anyauth'], value: false },
  { names: ['-b', '--cookie'], value: true, apply: ignoredWithNote(() => l10n.t('The cookies of -b were dropped: a cookie carries a session, and a session does not belong in a file.')) },
  { names: ['-k', '--insecure'], value: false, apply: ignoredWithNote(() => l10n.t('-k was dropped: the extension never skips certificate checks (for a server with a private CA, set NODE_EXTRA_CA_CERTS).')) },
  { names: ['-x', '--proxy'], value: true, apply: ignoredWithNote(() => l10n.t('The proxy of -x was dropped: the editor\'s proxy settings (or HTTPS_PROXY for tenant-api) apply.')) },
  { names: ['-U', '--proxy-user'], value: true },
  { names: ['-T', '--upload-file'], value: true, apply: (draft, value) => void draft.notes.push(l10n.t('-T {0} uploads a file: not imported, add a body "< {0}" by hand.', value)) },
  { names: ['--compressed', '-s', '--silent', '-S', '--show-error', '-v', '--verbose', '-i', '--include', '-L', '--location', '-f', '--fail', '--fail-with-body', '-#', '--progress-bar', '-N', '--no-buffer', '--http1.0', '--http1.1', '--http2', '--http2-prior-knowledge', '--http3', '-4', '--ipv4', '-6', '--ipv6', '-g', '--globoff', '-O', '--remote-name', '-J', '--remote-header-name', '--raw', '--tr-encoding', '-j', '--junk-session-cookies', '-q', '--disable', '--path-as-is', '--no-keepalive', '--tcp-nodelay', '--location-trusted', '-Z', '--parallel', '--ssl', '--ssl-reqd', '--tlsv1.2', '--tlsv1.3', '-l', '--list-only', '-n', '--netrc'], value: false },
  { names: ['-o', '--output', '-m', '--max-time', '--connect-timeout', '--retry', '--retry-delay', '--retry-max-time', '--max-redirs', '-w', '--write-out', '-D', '--dump-header', '-c', '--cookie-jar', '-K', '--config', '-r', '--range', '--resolve', '--connect-to', '--interface', '--limit-rate', '-E', '--cert', '--key', '--cacert', '--capath', '--cert-type', '--key-type', '--pass', '--trace', '--trace-ascii', '--unix-socket', '--abstract-unix-socket', '--aws-sigv4', '--proto', '--proto-redir', '--ciphers', '--tls-max', '--local-port', '--expect100-timeout', '--keepalive-time', '-Y', '--speed-limit', '-y', '--speed-time', '-z', '--time-cond', '-C', '--continue-at', '--request-target', '--variable', '--noproxy', '--max-filesize', '--dns-servers', '--user-agent-file', '-P', '--ftp-port', '-Q', '--quote', '-t', '--telnet-option', '--create-dirs', '--output-dir'], value: true },
];

const BY_NAME = new Map<string, CurlOption>(CURL_OPTIONS.flatMap((option) => option.names.map((name) => [name, option] as const)));

export function curlOption(name: string): CurlOption | undefined {
  return BY_NAME.get(name);
}

/** `Name: value`; `Name;` is a header with no value (curl's own syntax); a line without a colon keeps its text as the name. */
export function splitHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  if (colon < 0) return [text.replace(/;\s*$/, '').trim(), ''];
  return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
}
