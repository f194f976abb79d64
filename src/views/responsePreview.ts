/**
 * The first screen of a large response: its first items pretty-printed (folding and search work in
 * a small document), the count, and where to open the whole response. Why: the editor takes seconds
 * to open a document of tens of MB and turns folding off above 20 MB, while a user mostly wants to
 * see the shape of the records first. Pure: the tab calls formatResponseTab where it makes its text.
 */
import * as l10n from '../common/l10n';
import {
  composeResponse,
  DEFAULT_PRETTY_PRINT_LIMIT_BYTES,
  formatBytes,
  formatResponse,
  type FormattedResponse,
  type ResponseFormatOptions,
  type ResponseLike,
} from './responseFormat';
import { longestList } from './bodyList';

/** Bodies larger than this show a preview (the ones too large to be fully pretty-printed). */
export const PREVIEW_ABOVE_BYTES = DEFAULT_PRETTY_PRINT_LIMIT_BYTES;
/** Items shown in a preview: more than a screen, a few thousand lines at most. */
export const PREVIEW_ITEMS = 50;

export interface ResponsePreview {
  shownItems: number;
  totalItems: number;
  /** The property holding the list; '' when the body is the list. */
  listKey: string;
  /** The lines (0-based) that say it is a preview: where "Open the whole response" is offered. */
  noticeLines: number[];
  /** The whole response, laid out as formatResponse does: made only when the user asks for it. */
  whole(): FormattedResponse;
}

export interface TabText extends FormattedResponse {
  preview?: ResponsePreview;
}

export interface PreviewLimits {
  aboveBytes?: number;
  items?: number;
}

/** The text of a response tab: a preview for a large list, else the whole response (formatResponse). */
export function formatResponseTab(response: ResponseLike, options: ResponseFormatOptions = {}, limits: PreviewLimits = {}): TabText {
  const items = limits.items ?? PREVIEW_ITEMS;
  const list = response.bodyText.length > (limits.aboveBytes ?? PREVIEW_ABOVE_BYTES) ? longestList(response.json) : undefined;
  if (!list || list.items.length <= items) return formatResponse(response, options);
  const locale = options.locale ?? 'en';
  const total = list.items.length;
  const more = `// ${l10n.t('… {0} more items: Open the whole response', (total - items).toLocaleString(locale))}`;
  const body = list.key === '' ? renderList(list.items, items, '', more) : renderObject(response.json as Record<string, unknown>, list.key, items, more);
  const notice = l10n.t(
    'Preview: the first {0} of {1} items of a {2} response. Open the whole response to see them all.',
    items.toLocaleString(locale),
    total.toLocaleString(locale),
    formatBytes(response.bodyText.length, locale),
  );
  const formatted = composeResponse(response, { ...options, context: [...(options.context ?? []), notice] }, {
    text: body,
    isJson: true,
    prettyPrinted: true,
    skippedForSize: false,
  });
  const lines = formatted.text.split('\n');
  const noticeLines = [lines.indexOf(`// ${notice}`), lines.findIndex((line) => line.trimStart() === more)].filter((line) => line >= 0);
  return {
    ...formatted,
    preview: { shownItems: items, totalItems: total, listKey: list.key, noticeLines, whole: () => formatResponse(response, options) },
  };
}

/** The first `count` items, each pretty-printed, then the comment that more follow (valid JSONC). */
function renderList(items: readonly unknown[], count: number, indent: string, more: string): string {
  const inner = indent + '  ';
  const shown = items.slice(0, count).map((item) => inner + (JSON.stringify(item, null, 2) ?? 'null').split('\n').join('\n' + inner));
  return '[\n' + shown.join(',\n') + '\n' + inner + more + '\n' + indent + ']';
}

/** The object with every property as JSON.stringify(…, 2) writes it, its list cut to `count` items. */
function renderObject(json: Record<string, unknown>, listKey: string, count: number, more: string): string {
  const entries = Object.entries(json)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      const rendered = key === listKey ? renderList(value as unknown[], count, '  ', more) : (JSON.stringify(value, null, 2) ?? 'null').split('\n').join('\n  ');
      return `  ${JSON.stringify(key)}: ${rendered}`;
    });
  return '{\n' + entries.join(',\n') + '\n}';
}
