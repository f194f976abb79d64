/** Completion items and hover of `??` assertion lines, from the subject and operator tables of the engine. */
import * as vscode from 'vscode';
import { assertionWordAt, RESPONSE_HEADER_NAMES, type AssertionSpotKind } from '../../engine/assertions/assertionEditing';
import { OPERATORS } from '../../engine/assertions/operators';
import { SUBJECTS } from '../../engine/assertions/subjects';

function documentation(describe: string, differs: (() => string) | undefined): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  markdown.appendText(describe);
  if (differs) markdown.appendMarkdown('\n\n').appendText(vscode.l10n.t('Differs from httpYac: {0}', differs()));
  return markdown;
}

/** The items for a spot of an assertion line; undefined for any other spot. */
export function assertionCompletions(kind: AssertionSpotKind | string, range: vscode.Range): vscode.CompletionItem[] | undefined {
  const item = (label: string, itemKind: vscode.CompletionItemKind, order: number, insert: string, detail?: string) => {
    const created = new vscode.CompletionItem(label, itemKind);
    created.range = range;
    created.insertText = insert;
    created.sortText = String(order).padStart(3, '0');
    if (detail) created.detail = detail;
    return created;
  };
  switch (kind) {
    case 'assertionSubject':
      return SUBJECTS.map((subject, index) => {
        // A whole check (`?? schema`) is written alone.
        const created = item(subject.name, vscode.CompletionItemKind.Field, index, subject.verdict ? subject.name : `${subject.name} `, subject.describe());
        created.documentation = documentation(subject.describe(), subject.differs);
        // After the subject comes its argument or the operator: offer them at once.
        if (!subject.verdict) created.command = { command: 'editor.action.triggerSuggest', title: '' };
        return created;
      });
    case 'assertionHeaderName':
      return RESPONSE_HEADER_NAMES.map((name, index) => {
        const created = item(name, vscode.CompletionItemKind.Property, index, `${name} `);
        created.command = { command: 'editor.action.triggerSuggest', title: '' };
        return created;
      });
    case 'assertionOperator':
      return OPERATORS.map((operator, index) => {
        const created = item(operator.name, vscode.CompletionItemKind.Operator, index, operator.takesExpected ? `${operator.name} ` : operator.name, operator.describe());
        created.documentation = documentation(operator.describe(), operator.differs);
        // `==` is no word: filter on the name, so typing `=` or `ex` keeps the right ones.
        created.filterText = operator.name;
        return created;
      });
    default:
      return undefined;
  }
}

/** The hover of a subject or operator word on an assertion line. */
export function assertionHover(line: string, position: vscode.Position): vscode.Hover | undefined {
  const word = assertionWordAt(line, position.character);
  if (!word) return undefined;
  const markdown = new vscode.MarkdownString();
  const described = word.kind === 'subject' ? word.subject : word.operator;
  markdown.appendCodeblock(word.kind === 'subject' ? `?? ${word.subject.name}` : word.operator.ids.join(', '), 'text');
  markdown.appendMarkdown(documentation(described.describe(), described.differs).value);
  return new vscode.Hover(markdown, new vscode.Range(position.line, word.start, position.line, word.end));
}
