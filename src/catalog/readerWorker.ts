/**
 * The catalogue's worker thread (dist/catalog.js started by lazyLibrary.ts): reads descriptions off
 * the extension host's thread, keeps each with its validator, and answers checks and example bodies
 * by handle. Files a relative `$ref` names are read by the host, as its front end reads them.
 */
import type { MessagePort } from 'node:worker_threads';
import * as l10n from '../common/l10n';
import { readDescription } from './description';
import { DescriptionSchemas } from './descriptionSchemas';
import type { FailureData, FromWorker, ReadAnswer, ToWorker } from './readerProtocol';
import { CatalogueError, isCatalogueError, type CatalogueOperation } from './types';

export { WORKER_MARK } from './readerProtocol';

export function failureData(error: unknown): FailureData {
  if (isCatalogueError(error)) return { message: error.message, catalogue: true, ...(error.where ? { where: { ...error.where } } : {}) };
  return { message: error instanceof Error ? error.message : String(error), catalogue: false };
}

type Request = Exclude<ToWorker, { kind: 'release' } | { kind: 'file' }>;

export function serveReader(port: MessagePort, data: Record<string, unknown>): void {
  const translations = data.translations as Record<string, string> | undefined;
  if (translations) l10n.useTranslator(l10n.bundleTranslator(translations));
  const post = (message: FromWorker) => port.postMessage(message);
  const held = new Map<number, DescriptionSchemas>();
  const files = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
  let nextHandle = 1;
  let nextFile = 1;

  const schemasOf = (handle: number) => {
    const schemas = held.get(handle);
    if (!schemas) throw new CatalogueError(l10n.t('This catalogue was released: read it again.'));
    return schemas;
  };
  const answer = async (request: Request): Promise<unknown> => {
    switch (request.kind) {
      case 'read': {
        const readFile = (path: string) =>
          new Promise<string>((resolve, reject) => {
            const id = nextFile++;
            files.set(id, { resolve, reject });
            post({ kind: 'readFile', id, read: request.id, path });
          });
        const onOperations = (operations: CatalogueOperation[]) => post({ kind: 'operations', id: request.id, operations });
        const document = await readDescription({ text: request.text, file: request.file, name: request.name, ...(request.canReadFiles ? { readFile } : {}), onOperations });
        const handle = nextHandle++;
        held.set(handle, new DescriptionSchemas(document));
        const { document: _document, operations: _operations, ...description } = document;
        return { handle, description } satisfies ReadAnswer;
      }
      case 'check':
        return schemasOf(request.handle).check(request.pointer, request.value);
      case 'checkBody':
        return schemasOf(request.handle).checkBody(request.pointer, request.text);
      case 'example':
        return schemasOf(request.handle).exampleBody(request.body);
    }
  };
  port.on('message', (message: ToWorker) => {
    if (message.kind === 'release') {
      held.delete(message.handle);
    } else if (message.kind === 'file') {
      const waiting = files.get(message.id);
      files.delete(message.id);
      if (message.text !== undefined) waiting?.resolve(message.text);
      else waiting?.reject(Object.assign(new Error(message.code ?? 'unreadable'), { code: message.code }));
    } else {
      answer(message).then(
        (value) => post({ kind: 'answer', id: message.id, value }),
        (error: unknown) => post({ kind: 'failure', id: message.id, error: failureData(error) }),
      );
    }
  });
}
