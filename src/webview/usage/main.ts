/**
 * The usage panel's webview: draws the view the extension sends (src/views/usage/usageView.ts) as
 * plain SVG, each chart with a text alternative (its summary, a title on every point and bar, and the
 * readings as a table), and sends back only two requests: resume an organization, show the list.
 */
import type { HourChart, Mark, WeekChart } from '../../views/usage/usageChart';
import { VIEW } from '../../views/usage/usageChart';
import type { UsageRequest, UsageStrings, UsageUpdate, UsageView } from '../../views/usage/usageProtocol';
import type { OrganizationView } from '../../views/usage/usageView';
import { element, format, host, initialData, svgElement, withBold } from '../shared/page';
import './usage.css';

interface Initial {
  strings: UsageStrings;
  locale: string;
  view: UsageView;
}

const initial = initialData<Initial>();
const strings = initial.strings;
const send = (request: UsageRequest) => host.postMessage(request);
const bottom = VIEW.height - VIEW.bottom;
const right = VIEW.width - VIEW.right;

const time = (at: number) => new Date(at).toLocaleString(initial.locale);
const seconds = (ms: number) => (ms / 1000).toLocaleString(initial.locale, { maximumFractionDigits: 1 });
const count = (value: number) => value.toLocaleString(initial.locale);

function frame(label: string, className: string): SVGSVGElement {
  return svgElement('svg', { class: `chart ${className}`, viewBox: `0 0 ${VIEW.width} ${VIEW.height}`, role: 'img', 'aria-label': label, preserveAspectRatio: 'xMidYMid meet' });
}

function axes(svg: SVGSVGElement, xTicks: ReadonlyArray<{ x: number; label: string }>, yTicks: ReadonlyArray<{ value: number; y: number }>, yText = count): void {
  for (const tick of yTicks) {
    svg.append(svgElement('line', { class: 'grid-line', x1: VIEW.left, x2: right, y1: tick.y, y2: tick.y }));
    svg.append(svgElement('text', { class: 'tick', x: VIEW.left - 6, y: tick.y + 4, 'text-anchor': 'end' }, yText(tick.value)));
  }
  for (const tick of xTicks) {
    svg.append(svgElement('line', { class: 'grid-line', x1: tick.x, x2: tick.x, y1: VIEW.top, y2: bottom }));
    svg.append(svgElement('text', { class: 'tick', x: tick.x, y: bottom + 18, 'text-anchor': 'middle' }, tick.label));
  }
  svg.append(svgElement('line', { class: 'axis', x1: VIEW.left, x2: right, y1: bottom, y2: bottom }));
}

function marks(svg: SVGSVGElement, found: readonly Mark[]): void {
  for (const mark of found) {
    const text = mark.kind === 'stop' ? format(strings.stop, time(mark.at)) : format(strings.pause, time(mark.at), seconds(mark.ms ?? 0));
    svg.append(svgElement('line', { class: `mark-line ${mark.kind}`, x1: mark.x, x2: mark.x, y1: VIEW.top, y2: bottom }));
    svg.append(
      svgElement('path', { class: `mark ${mark.kind}`, d: `M ${mark.x} ${bottom - 9} l 5 9 l -10 0 z`, 'data-at': mark.at }, svgElement('title', {}, text)),
    );
  }
}

const pointsOf = (points: ReadonlyArray<{ x: number; y: number }>) => points.map((point) => `${point.x},${point.y}`).join(' ');

function weekSvg(chart: WeekChart, label: string): SVGSVGElement {
  const svg = frame(label, 'week');
  axes(svg, chart.xTicks, chart.yTicks);
  svg.append(svgElement('line', { class: 'limit', x1: VIEW.left, x2: right, y1: chart.limitY, y2: chart.limitY }));
  svg.append(svgElement('text', { class: 'limit-label', x: right - 4, y: chart.limitY - 4, 'text-anchor': 'end' }, format(strings.limit, count(chart.limit))));
  svg.append(svgElement('line', { class: 'now', x1: chart.nowX, x2: chart.nowX, y1: VIEW.top, y2: bottom }, svgElement('title', {}, strings.now)));
  if (chart.even) svg.append(svgElement('polyline', { class: 'even', points: pointsOf(chart.even) }, svgElement('title', {}, strings.even)));
  if (chart.forecast) svg.append(svgElement('polyline', { class: 'forecast', points: pointsOf(chart.forecast) }, svgElement('title', {}, strings.forecast)));
  svg.append(svgElement('polyline', { class: 'usage', points: pointsOf(chart.line) }));
  for (const dot of chart.dots) {
    svg.append(svgElement('circle', { class: 'reading', cx: dot.x, cy: dot.y, r: 3, 'data-used': dot.used, 'data-at': dot.at }, svgElement('title', {}, format(strings.reading, time(dot.at), count(dot.used)))));
  }
  marks(svg, chart.marks);
  return svg;
}

function legend(): HTMLElement {
  const item = (className: string, text: string) => element('li', {}, element('span', { class: `swatch ${className}`, 'aria-hidden': 'true' }), text);
  return element('ul', { class: 'legend' }, item('forecast', strings.forecast), item('even', strings.even), item('stop', strings.legendStop), item('pause', strings.legendPause));
}

function readingsTable(organization: OrganizationView): HTMLElement {
  const rows = organization.readings.map((row) => element('tr', {}, element('td', {}, row.at), element('td', { class: 'number' }, row.used)));
  return element(
    'details',
    {},
    element('summary', {}, strings.readings),
    element('table', {}, element('thead', {}, element('tr', {}, element('th', { scope: 'col' }, strings.time), element('th', { scope: 'col' }, strings.used))), element('tbody', {}, ...rows)),
  );
}

function organizationSection(organization: OrganizationView): HTMLElement {
  const heading = element('h3', {}, organization.name);
  if (organization.stopped) heading.append(' ', element('span', { class: 'badge' }, strings.stopped));
  const section = element('article', { class: `organization severity-${organization.severity}`, 'data-organization': organization.name }, heading);
  section.append(element('ul', { class: 'lines' }, ...organization.lines.map((line) => element('li', {}, ...withBold(line)))));
  if (organization.stopped) {
    const resume = element('button', { type: 'button', class: 'resume' }, strings.resume);
    resume.addEventListener('click', () => send({ type: 'resume', organization: organization.name }));
    section.append(resume);
  }
  if (organization.chart) section.append(weekSvg(organization.chart, organization.chartLabel ?? organization.name), legend(), readingsTable(organization));
  return section;
}

function hourSvgs(chart: HourChart, label: string): Element[] {
  const calls = frame(label, 'calls');
  axes(calls, chart.xTicks, chart.yTicks);
  calls.append(svgElement('line', { class: 'limit', x1: VIEW.left, x2: right, y1: chart.limitY, y2: chart.limitY }));
  calls.append(svgElement('text', { class: 'limit-label', x: right - 4, y: chart.limitY - 4, 'text-anchor': 'end' }, format(strings.limit, count(chart.limit))));
  const waits = frame(strings.waits, 'waits');
  const waitTicks = [0, 0.5, 1].map((share) => ({ value: share * chart.waitScaleMs, y: bottom - share * (bottom - VIEW.top) }));
  axes(waits, chart.xTicks, waitTicks, (ms) => seconds(ms));
  for (const bar of chart.bars) {
    const title = format(strings.minute, new Date(bar.at).toLocaleTimeString(initial.locale, { hour: '2-digit', minute: '2-digit' }), bar.calls, seconds(bar.waitedMs), seconds(bar.longestWaitMs));
    calls.append(svgElement('rect', { class: 'calls', x: bar.x, y: bar.callsY, width: bar.width, height: Math.max(0, bottom - bar.callsY), 'data-calls': bar.calls, 'data-at': bar.at }, svgElement('title', {}, title)));
    waits.append(svgElement('rect', { class: 'wait', x: bar.x, y: bar.waitY, width: bar.width, height: Math.max(0, bottom - bar.waitY), 'data-waited': bar.waitedMs }, svgElement('title', {}, title)));
  }
  marks(calls, chart.marks);
  return [element('h3', {}, strings.calls), calls, element('h3', {}, strings.waits), waits];
}

/** What a redraw would lose: the focused control and the open tables of readings. */
function kept(): { focus?: string; open: Set<string> } {
  const active = document.activeElement as HTMLElement | null;
  const owner = active?.closest<HTMLElement>('[data-organization]')?.dataset.organization;
  const focus = active?.id ? `#${active.id}` : owner && active?.classList.contains('resume') ? owner : undefined;
  const open = new Set(Array.from(document.querySelectorAll<HTMLElement>('article[data-organization]')).filter((article) => article.querySelector('details')?.open).map((article) => article.dataset.organization!));
  return { focus, open };
}

function putBack({ focus, open }: { focus?: string; open: Set<string> }): void {
  for (const article of Array.from(document.querySelectorAll<HTMLElement>('article[data-organization]'))) {
    const details = article.querySelector('details');
    if (details && open.has(article.dataset.organization!)) details.open = true;
    if (focus === article.dataset.organization) article.querySelector<HTMLElement>('.resume')?.focus();
  }
  if (focus?.startsWith('#')) document.getElementById(focus.slice(1))?.focus();
}

function render(view: UsageView): void {
  const before = kept();
  const list = element('button', { type: 'button', id: 'show-list' }, strings.list);
  list.addEventListener('click', () => send({ type: 'showList' }));
  const organizations = view.organizations.length === 0 ? [element('p', { class: 'none' }, strings.none)] : view.organizations.map(organizationSection);
  const rate = element('section', { class: 'rate', 'aria-labelledby': 'rate-heading' }, element('h2', { id: 'rate-heading' }, strings.rateHeading));
  rate.append(element('ul', { class: 'lines' }, ...view.rate.lines.map((line) => element('li', {}, ...withBold(line)))), ...hourSvgs(view.rate.chart, view.rate.chartLabel));
  document.getElementById('app')!.replaceChildren(
    element('header', {}, element('h1', {}, strings.title), element('span', { class: 'status', role: 'status' }, view.updated), list),
    element('section', { class: 'week', 'aria-labelledby': 'week-heading' }, element('h2', { id: 'week-heading' }, strings.weekHeading), ...organizations),
    rate,
  );
  putBack(before);
}

render(initial.view);
const saved = host.getState() as { scrollY?: number } | undefined;
if (saved?.scrollY) window.scrollTo(0, saved.scrollY);
window.addEventListener('scroll', () => host.setState({ scrollY: window.scrollY }), { passive: true });
window.addEventListener('message', (event: MessageEvent<UsageUpdate>) => {
  if (event.data?.type === 'view') render(event.data.view);
});
// The page was made when the panel opened: after a hide and show, the extension sends what is new.
send({ type: 'ready' });
