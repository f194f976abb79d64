/**
 * Localization for modules that must not import `vscode`. Call it as `l10n.t('Text {0}', arg)`
 * (import * as l10n from '../common/l10n'): the same shape as vscode.l10n.t, so
 * `@vscode/l10n-dev export` extracts these strings too. The extension installs vscode.l10n.t at
 * activation; until then (and in unit tests) the English text is formatted as is.
 */
type Translator = (message: string, ...args: Array<string | number | boolean>) => string;

function format(message: string, ...args: Array<string | number | boolean>): string {
  return message.replace(/\{(\d+)\}/g, (match, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? match : String(value);
  });
}

let translator: Translator = format;

export function useTranslator(next: Translator): void {
  translator = next;
}

/**
 * A translator from a bundle of translations (vscode.l10n.bundle: the message is the key), for a
 * thread that has no vscode: the catalogue's worker.
 */
export function bundleTranslator(bundle: Readonly<Record<string, string>>): Translator {
  return (message, ...args) => format(bundle[message] ?? message, ...args);
}

export function t(message: string, ...args: Array<string | number | boolean>): string {
  return translator(message, ...args);
}

/**
 * The singular or the plural text of a count ("1 request", "2 requests"). English and Italian, the
 * languages shipped, both take the singular for exactly one and the plural otherwise (0 included), so
 * one rule serves both. Pass both texts through `t` with literal messages, so that extraction finds
 * each and each gets its translation: `byCount(n, t('{0} request', n), t('{0} requests', n))`.
 */
export function byCount(count: number, one: string, other: string): string {
  return count === 1 ? one : other;
}
