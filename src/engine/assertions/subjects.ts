/**
 * What an assertion line checks (`?? <subject> [argument] <operator> [expected]`), as one table:
 * httpYac's subjects that run no code. `js` (a JavaScript expression) is refused: a request file from a
 * pull request must never run code on the reviewer's machine. No `vscode` here.
 */
import { isHeaderName } from '../../api/requestHeaders';
import * as l10n from '../../common/l10n';
import { evaluateJsonPath, parseJsonPath } from '../jsonPath';
import type { ContractVerdict } from '../../catalog/types';

export type { ContractVerdict };

/** The part of a response an assertion reads. */
export interface AssertedResponse {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  bodyText: string;
  /** Parsed body when it is JSON. */
  json?: unknown;
  /** From the first send to the last byte. */
  timeMs: number;
  /** How the answer compares with its documented schema (`?? schema`); absent when no catalogue can say. */
  contract?: () => ContractVerdict;
}

/** A subject that is a whole check (`?? schema`): no operator, no expected value. */
export interface SubjectVerdict {
  passed: boolean;
  actual: string;
  message: string;
}

/** A subject's reading: the value (undefined = not found), or why it could not be read at all. */
export type SubjectValue = { ok: true; value: unknown } | { ok: false; reason: string };

export interface AssertionSubject {
  name: string;
  /** Whether a name or path follows the subject (`header content-type`, `body $.items`). */
  argument: 'none' | 'required' | 'optional';
  describe: () => string;
  /** Where httpYac's rule differs (hover and completion say it; the README lists them). */
  differs?: () => string;
  /** A problem with the argument, found while parsing (so the editor shows it before any send). */
  checkArgument?: (argument: string) => string | undefined;
  read: (response: AssertedResponse, argument: string | undefined) => SubjectValue;
  /** A subject that checks by itself, written without an operator (`?? schema`). */
  verdict?: (response: AssertedResponse) => SubjectVerdict;
}

/** httpYac passes a body path to JSONPath as written (`foo` works there); ours reads `foo` as `$.foo`. */
function bodyPath(argument: string): string {
  return argument.startsWith('$') ? argument : `$.${argument}`;
}

function readBody(response: AssertedResponse, argument: string | undefined): SubjectValue {
  if (argument === undefined) return { ok: true, value: response.json !== undefined ? response.json : response.bodyText };
  if (response.json === undefined) return { ok: false, reason: l10n.t('the body is not JSON, so {0} cannot be read', argument) };
  const parsed = parseJsonPath(bodyPath(argument));
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  const values = evaluateJsonPath(response.json, parsed.steps);
  const wildcard = parsed.steps.some((step) => step.kind === 'wildcard');
  return { ok: true, value: wildcard ? values : values[0] };
}

export const SUBJECTS: readonly AssertionSubject[] = [
  { name: 'status', argument: 'none', describe: () => l10n.t('the response status code, a number'), read: (response) => ({ ok: true, value: response.status }) },
  {
    name: 'header',
    argument: 'required',
    describe: () => l10n.t('a response header by name (any case), as text'),
    checkArgument: (name) => (isHeaderName(name) ? undefined : l10n.t('"{0}" is not a header name', name)),
    read: (response, name) => ({ ok: true, value: response.headers[(name ?? '').toLowerCase()] }),
  },
  {
    name: 'body',
    argument: 'optional',
    describe: () => l10n.t('the body (parsed when JSON), or a value in it by JSONPath ($.items[0].id)'),
    differs: () => l10n.t('httpYac passes the path to JSONPath as written; here a path without $ reads as $.path (items[0].id is $.items[0].id).'),
    checkArgument: (path) => {
      const parsed = parseJsonPath(bodyPath(path));
      return parsed.ok ? undefined : parsed.reason;
    },
    read: readBody,
  },
  { name: 'duration', argument: 'none', describe: () => l10n.t('the time from sending to the last byte, in milliseconds'), read: (response) => ({ ok: true, value: response.timeMs }) },
  {
    name: 'schema',
    argument: 'none',
    describe: () => l10n.t('the body matches the schema its catalogue (tenantApi.catalogues) documents for the answer\'s status; written alone, without an operator'),
    differs: () => l10n.t('httpYac has no schema assertion: httpYac reports "schema" as an unknown subject.'),
    read: (response) => ({ ok: true, value: response.contract?.() }),
    verdict: schemaVerdict,
  },
];

function schemaVerdict(response: AssertedResponse): SubjectVerdict {
  const verdict = response.contract?.();
  const failed = (actual: string, reason: string): SubjectVerdict => ({ passed: false, actual, message: l10n.t('schema: {0}', reason) });
  if (!verdict) return failed(l10n.t('not checked'), l10n.t('no catalogue is attached (tenantApi.catalogues), so no schema documents this answer'));
  switch (verdict.kind) {
    case 'undocumented':
      return failed(l10n.t('not checked'), l10n.t('no catalogue documents {0}', verdict.request));
    case 'status':
      return failed(String(verdict.status), l10n.t('{0} documents no answer {1} (only {2})', verdict.operation, verdict.status, verdict.documented.join(', ') || '-'));
    case 'unchecked':
      return failed(l10n.t('not checked'), l10n.t('{0} {1}: {2}', verdict.operation, verdict.status, verdict.reason));
    case 'checked': {
      const [first] = verdict.violations;
      if (!first) return { passed: true, actual: l10n.t('matches'), message: l10n.t('schema: the body matches the schema of {0} for {1}', verdict.operation, verdict.status) };
      const places = verdict.violations.map((violation) => `${violation.path} ${violation.message} (${violation.rule})`).join('; ');
      return failed(`${first.path} ${first.message} (${first.rule})`, l10n.t('the body does not match the schema of {0} for {1}: {2}', verdict.operation, verdict.status, places));
    }
  }
}

/** httpYac subjects we refuse on purpose, with the reason the diagnostic gives. */
export const REFUSED_SUBJECTS: Readonly<Record<string, () => string>> = {
  js: () => l10n.t('"?? js" runs JavaScript from the file: request files never run code (use status, header, body or duration)'),
  xpath: () => l10n.t('"?? xpath" is not supported: the platform answers JSON (use body with a JSONPath)'),
};

export function findSubject(word: string): AssertionSubject | undefined {
  const lower = word.toLowerCase();
  return SUBJECTS.find((subject) => subject.name === lower);
}
