/**
 * A description's text as a value: JSON when it starts with `{`, else YAML (through `yaml`, whose
 * alias limit refuses a document that expands without bound). A syntax error names the line and column.
 */
import * as YAML from 'yaml';
import * as l10n from '../common/l10n';
import { MAX_DESCRIPTION_BYTES, MAX_YAML_ALIASES, megabytes } from './limits';
import { CatalogueError } from './types';

function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split(/\r?\n/);
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function parseJson(text: string, file: string | undefined): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? positionOf(text, Number(position[1])) : {};
    const reason = message.replace(/, ".*" is not valid JSON$/s, '').replace(/ (in JSON )?at position \d+.*$/s, '');
    throw new CatalogueError(l10n.t('{0} is not valid JSON: {1}', file ?? l10n.t('The description'), reason), { file, ...where });
  }
}

function parseYaml(text: string, file: string | undefined): unknown {
  const document = YAML.parseDocument(text, { merge: true, prettyErrors: true, uniqueKeys: true });
  const [first] = document.errors;
  if (first) {
    const at = first.linePos?.[0];
    const reason = first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new CatalogueError(l10n.t('{0} is not valid YAML: {1}', file ?? l10n.t('The description'), reason), { file, line: at?.line, column: at?.col });
  }
  try {
    return document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/alias/i.test(message)) {
      throw new CatalogueError(l10n.t('{0} is refused: its YAML aliases expand beyond {1} nodes (a document that grows without bound).', file ?? l10n.t('The description'), MAX_YAML_ALIASES), { file });
    }
    throw new CatalogueError(l10n.t('{0} is not valid YAML: {1}', file ?? l10n.t('The description'), message), { file });
  }
}

/** The value of a description's (or a referenced file's) text; throws CatalogueError. */
export function parseDescriptionText(text: string, file?: string): unknown {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_DESCRIPTION_BYTES) {
    throw new CatalogueError(l10n.t('{0} is {1}, over the limit of {2} for a description.', file ?? l10n.t('The description'), megabytes(bytes), megabytes(MAX_DESCRIPTION_BYTES)), { file });
  }
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start === '') throw new CatalogueError(l10n.t('{0} is empty.', file ?? l10n.t('The description')), { file });
  return start.startsWith('{') || start.startsWith('[') ? parseJson(text.replace(/^\uFEFF/, ''), file) : parseYaml(text, file);
}
