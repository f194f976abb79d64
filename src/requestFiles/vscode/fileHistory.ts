/**
 * A request file's send as an entry of the request history (Send Request's), so it can be re-run,
 * copied as cURL and saved like any other. No `vscode` here.
 */
import type { HistoryEntry } from '../../commands/requestHistory';
import { parseQuery } from '../../commands/requestHistory';
import { MIN_MASKED_LENGTH } from '../../common/redact';
import type { RunOutcome } from '../../engine/runner';

/**
 * The entry of an outcome, or undefined when it has none: nothing was prepared, the target is a URL
 * outside the platform (Send Request cannot send it again), or a value the file keeps secret would be
 * stored (history lives in globalState, where no secret goes).
 */
export function historyEntryOf(outcome: RunOutcome, at = Date.now()): HistoryEntry | undefined {
  const prepared = outcome.prepared;
  if (!prepared || prepared.target.kind !== 'path') return undefined;
  const [path, query] = splitQuery(prepared.target.path);
  const response = outcome.sent?.response ?? outcome.error?.response;
  const entry: HistoryEntry = {
    method: prepared.method,
    path,
    ...(query ? { query: parseQuery(query) } : {}),
    ...(prepared.body !== undefined ? { body: prepared.body } : {}),
    ...(Object.keys(prepared.headers).length > 0 ? { headers: { ...prepared.headers } } : {}),
    ...(outcome.sent?.tenant ? { tenantId: outcome.sent.tenant.id, tenantLabel: outcome.sent.tenant.descrizioneAmbienteDati } : {}),
    ...(response ? { url: response.url, status: response.status, timeMs: response.timeMs } : {}),
    ...(outcome.error ? { error: outcome.error.kind } : {}),
    at,
  };
  const text = JSON.stringify(entry);
  return prepared.secrets.some((secret) => secret.length >= MIN_MASKED_LENGTH && text.includes(secret)) ? undefined : entry;
}

function splitQuery(path: string): [string, string | undefined] {
  const at = path.indexOf('?');
  return at < 0 ? [path, undefined] : [path.slice(0, at), path.slice(at + 1)];
}
