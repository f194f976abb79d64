// The editor's body check (src/requestFiles/vscode/catalogueFeatures.ts) without vscode: the same lookup of the operation and its schema.
import type { CatalogueSet } from '../../../src/catalog/catalogues';
import type { DiagnosticContext } from '../../../src/engine/diagnostics';

export function catalogueBodyCheckFor(catalogues: CatalogueSet): DiagnosticContext['bodyCheck'] {
  return (method, url, body) => {
    const found = catalogues.find(method, url.split('?')[0]);
    const pointer = found?.operation.body?.schemaPointer;
    return found && pointer ? { operation: found.operation.key, violations: catalogues.check(found, pointer, body) } : undefined;
  };
}
