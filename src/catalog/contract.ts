/**
 * How an answer compares with its catalogue: the operation its method and path are, the response
 * its status documents (the exact status, else its range `2XX`, else `default`), and where its body
 * breaks that response's schema. What `?? schema` reports.
 */
import * as l10n from '../common/l10n';
import type { CatalogueSet } from './catalogues';
import { isCatalogueError, type CatalogueOperation, type CatalogueResponse, type ContractVerdict } from './types';

export interface ContractAnswer {
  method: string;
  /** The URL the answer came from; its path is the operation's. */
  url: string;
  status: number;
  bodyText: string;
  json?: unknown;
}

export function documentedResponse(operation: CatalogueOperation, status: number): CatalogueResponse | undefined {
  const exact = operation.responses.find((response) => response.status === String(status));
  return exact ?? operation.responses.find((response) => response.status === `${String(status)[0]}XX`) ?? operation.responses.find((response) => response.status === 'DEFAULT');
}

export async function contractVerdict(catalogues: Pick<CatalogueSet, 'find' | 'check'>, answer: ContractAnswer): Promise<ContractVerdict> {
  let path: string;
  try {
    path = new URL(answer.url).pathname;
  } catch {
    path = answer.url;
  }
  const request = `${answer.method.toUpperCase()} ${path}`;
  const documented = catalogues.find(answer.method, path);
  if (!documented) return { kind: 'undocumented', request };
  const operation = documented.operation.key;
  const response = documentedResponse(documented.operation, answer.status);
  if (!response) return { kind: 'status', operation, status: answer.status, documented: documented.operation.responses.map((each) => each.status) };
  if (!response.schemaPointer) {
    return answer.bodyText.trim() === ''
      ? { kind: 'checked', operation, status: response.status, violations: [] }
      : { kind: 'unchecked', operation, status: response.status, reason: l10n.t('no JSON schema is documented for this answer') };
  }
  if (answer.json === undefined) return { kind: 'unchecked', operation, status: response.status, reason: answer.bodyText.trim() === '' ? l10n.t('the body is empty') : l10n.t('the body is not JSON') };
  try {
    return { kind: 'checked', operation, status: response.status, violations: await catalogues.check(documented, response.schemaPointer, answer.json) };
  } catch (error) {
    // The catalogue's own sentence (its reader stopped, it was unloaded) as it is; else the validator's.
    const reason = isCatalogueError(error) ? error.message : l10n.t('its schema cannot be compiled: {0}', error instanceof Error ? error.message : String(error));
    return { kind: 'unchecked', operation, status: response.status, reason };
  }
}

/** The runner's view of the catalogues: loaded first, then the verdict on the answer. */
export function catalogueContracts(catalogues: Pick<CatalogueSet, 'find' | 'check' | 'ready'>) {
  return {
    async verdictOf(answer: ContractAnswer): Promise<() => ContractVerdict> {
      await catalogues.ready();
      const verdict = await contractVerdict(catalogues, answer);
      return () => verdict;
    },
  };
}
