/**
 * What opening a catalogue operation asks: only what it needs (its path parameters, its required
 * query and header parameters, its required JSON body, filled with the documented example or a
 * sample), and the request those answers make. No `vscode` here.
 */
import { isCredentialHeader } from '../api/requestHeaders';
import type { CatalogueOperation, CatalogueParameter } from '../catalog/types';
import type { SendRequestArgs } from './requestInput';

/** The parameters an operation cannot be sent without (credential headers are the client's). */
export function requiredParameters(operation: CatalogueOperation): CatalogueParameter[] {
  return operation.parameters.filter((parameter) => parameter.required && (parameter.in === 'path' || parameter.in === 'query' || (parameter.in === 'header' && !isCredentialHeader(parameter.name))));
}

/** Whether opening it sends at once: nothing to ask. */
export function needsInput(operation: CatalogueOperation): boolean {
  return requiredParameters(operation).length > 0 || (operation.body?.required === true && operation.body.json);
}

export function startingValue(parameter: CatalogueParameter): string {
  if (parameter.example === undefined) return '';
  return typeof parameter.example === 'string' ? parameter.example : JSON.stringify(parameter.example);
}

/** The request an operation makes with these answers (by `in name`), and its JSON body text. */
export function operationRequest(
  operation: CatalogueOperation,
  answers: ReadonlyMap<string, string>,
  body: string | undefined,
  tenantId?: string,
): Omit<SendRequestArgs, 'query' | 'headers'> & { query: Record<string, string>; headers: Record<string, string> } {
  const value = (parameter: CatalogueParameter) => answers.get(`${parameter.in} ${parameter.name}`) ?? '';
  const path = operation.path.replace(/\{([^{}/]+)\}/g, (whole, name: string) => {
    const parameter = operation.parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
    return parameter ? encodeURIComponent(value(parameter)) : whole;
  });
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  for (const parameter of requiredParameters(operation)) {
    if (parameter.in === 'query') query[parameter.name] = value(parameter);
    if (parameter.in === 'header') headers[parameter.name] = value(parameter);
  }
  return { method: operation.method, path, query, headers, ...(body !== undefined && body.trim() !== '' ? { body } : {}), ...(tenantId ? { tenantId } : {}) };
}
