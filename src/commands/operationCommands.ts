import * as vscode from 'vscode';
import type { CatalogueSet, Documented } from '../catalog/catalogues';
import type { CatalogueOperation, CatalogueParameter } from '../catalog/types';
import { INTERNAL_COMMAND, type CommandHandlers } from '../common/commandIds';
import type { OperationTarget } from '../views/catalogueTreeModel';
import { handle, type WorkbenchCommandContext } from './commandContext';
import { needsInput, operationRequest, requiredParameters, startingValue } from './operationInput';
import { input, title, trackStep, type Step } from './quickInputSteps';
import { normalizeArgs, validateJsonBody, type SendRequestArgs } from './requestInput';
import { runSteps } from './stepSequence';

/** The loaded operation an item or a caller names, once the catalogues are read. */
export async function documentedOperation(catalogues: CatalogueSet, target: unknown): Promise<(Documented & { tenantId?: string }) | undefined> {
  const wanted = target as Partial<OperationTarget> | undefined;
  if (typeof wanted?.catalogueId !== 'string' || typeof wanted.key !== 'string') return undefined;
  await catalogues.ready();
  const catalogue = catalogues.list().find((candidate) => candidate.id === wanted.catalogueId);
  if (catalogue?.state.kind !== 'loaded') return undefined;
  const operation = catalogue.state.document.operations.find((candidate) => candidate.key === wanted.key);
  return operation ? { catalogue: catalogue as Documented['catalogue'], operation, ...(wanted.tenantId ? { tenantId: wanted.tenantId } : {}) } : undefined;
}

/** The box that asks one required parameter of an operation; the answer goes in `answers` by `in name`. */
export function parameterStep(operation: CatalogueOperation, parameter: CatalogueParameter, answers: Map<string, string>): () => Promise<Step> {
  const key = `${parameter.in} ${parameter.name}`;
  return () =>
    input({
      title: title(parameter.name),
      prompt: [parameter.description, vscode.l10n.t('{0} parameter of {1} {2}, required', parameter.in, operation.method, operation.path)].filter(Boolean).join(' · '),
      value: answers.get(key) ?? startingValue(parameter),
      validate: (value) => (value.trim() === '' ? vscode.l10n.t('{0} is required.', parameter.name) : undefined),
      accept: (value) => answers.set(key, value.trim()),
    });
}

/** Asks what the operation needs, one box each (Back goes to the previous one); undefined when cancelled. */
async function askOperation(documented: Documented, catalogues: CatalogueSet, tenantId?: string): Promise<SendRequestArgs | undefined> {
  const { operation } = documented;
  const answers = new Map<string, string>();
  let body: string | undefined;
  const steps = requiredParameters(operation).map((parameter) => parameterStep(operation, parameter, answers));
  if (operation.body?.required && operation.body.json) {
    const example = JSON.stringify((await catalogues.exampleBody(documented).catch(() => undefined)) ?? {}, null, 2);
    steps.push(() =>
      input({
        title: title(vscode.l10n.t('body')),
        prompt: vscode.l10n.t('JSON body ({0}), from the documented example or the schema', operation.body!.mediaType),
        value: body ?? JSON.stringify(JSON.parse(example)),
        validate: validateJsonBody,
        accept: (value) => (body = value),
        editor: { tooltip: vscode.l10n.t('Write the body in an editor'), prompt: vscode.l10n.t('Write the JSON body in the editor beside, then press Enter here.'), initial: example },
      }),
    );
  }
  if (!(await runSteps(steps, trackStep))) return undefined;
  return operationRequest(operation, answers, body, tenantId);
}

/** tenantApi.internal.openOperation: a catalogue operation sent at once, or after only what it needs is asked. */
export function operationCommands(deps: WorkbenchCommandContext & { catalogues?: CatalogueSet }): CommandHandlers {
  const handlers: CommandHandlers = {};
  handle(handlers, INTERNAL_COMMAND.openOperation, async (target?: unknown) => {
    const documented = deps.catalogues && (await documentedOperation(deps.catalogues, target));
    if (!documented) {
      void vscode.window.showErrorMessage(vscode.l10n.t('This operation is no longer in its catalogue: refresh the Tenants view.'));
      return undefined;
    }
    const { tenantId } = documented;
    const request = needsInput(documented.operation)
      ? await askOperation(documented, deps.catalogues!, tenantId)
      : { method: documented.operation.method, path: documented.operation.path, ...(tenantId ? { tenantId } : {}) };
    return request ? deps.runner.run(normalizeArgs(request), { fromTree: true }) : undefined;
  });
  return handlers;
}
