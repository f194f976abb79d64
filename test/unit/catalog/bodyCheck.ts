// The editor's diagnostics with a catalogue (src/requestFiles/vscode/languageFeatures.ts) without vscode:
// a first pass asks the body checks, a second one uses their answers.
import { BodyChecks } from '../../../src/catalog/bodyChecks';
import type { CatalogueSet } from '../../../src/catalog/catalogues';
import { diagnoseRequestFile, type DiagnosticContext, type FileDiagnostic } from '../../../src/engine/diagnostics';
import { parseRequestFile } from '../../../src/engine/parser';

export async function diagnoseWithCatalogues(text: string, context: Omit<DiagnosticContext, 'bodyCheck'>, catalogues: CatalogueSet): Promise<FileDiagnostic[]> {
  const checks = new BodyChecks(catalogues);
  const diagnose = () => diagnoseRequestFile(text, parseRequestFile(text), { ...context, bodyCheck: checks.lookup });
  const first = diagnose();
  return (await checks.settled()) ? diagnose() : first;
}
