// npm run bench:responses [-- --runs 5]
//
// Large responses: the time from a response's arrival to the text of its tab's first screen, for a
// 10 MB and a 20 MB listing of the sandbox's ditte (its own records, about 550 bytes each). Measured:
// JSON.parse of the body (the API client parses every JSON response once, in responseBuilder), then
// formatResponseTab, the formatting path both response tabs take (a preview above 1 MB); and, for
// comparison, formatResponse of the whole body (what "Open the whole response" formats, and what the
// tab formatted before the preview). The editor's own time to show the small preview document is not
// in this figure (the in-editor test largeResponses.test.ts logs it).
// Targets, on the first (cold) run of each size: parse + preview under 1000 ms, and the preview alone
// under 100 ms of CPU time (CPU, not wall: on a shared machine the wall time also measures the others).
// Writes test/bench/results/responses.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ditta, page } from '../sandbox/api/data';
import { formatResponse, type ResponseLike } from '../../src/views/responseFormat';
import { formatResponseTab } from '../../src/views/responsePreview';
import { option } from './options';

const RUNS = Math.max(1, Math.floor(option('runs', 5)));
const FIRST_SCREEN_BUDGET_MS = 1000;
const PREVIEW_BUDGET_CPU_MS = 100;
const MB = 1024 * 1024;

/** A listing of at least `bytes` bytes, shaped as the sandbox answers GET /efat/api/v1/ditte. */
function listingOf(bytes: number): string {
  const probe = JSON.stringify(ditta('RC-MI', 0)).length + 1;
  const rows = Math.ceil(bytes / probe);
  return JSON.stringify({ ambienteDati: 'RC-MI', ...page(rows, { pagina: 1, dimensionePagina: rows }, (index) => ditta('RC-MI', index)) });
}

function responseOf(bodyText: string, json: unknown): ResponseLike {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:4403/efat/api/v1/ditte?dimensionePagina=50000',
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': 'application/json; charset=utf-8', 'service-limit-info': 'api-usage=12/1000' },
    bodyText,
    json,
    timeMs: 480,
    sizeBytes: Buffer.byteLength(bodyText),
  };
}

function timed<T>(work: () => T): { value: T; ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = work();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number) => Number(value.toFixed(1));

function measure(bodyText: string) {
  const parse = timed(() => JSON.parse(bodyText) as unknown);
  const response = responseOf(bodyText, parse.value);
  const preview = timed(() => formatResponseTab(response, { receivedAt: Date.now(), locale: 'en' }));
  return { parse, preview, response };
}

function benchSize(megabytes: number) {
  const bodyText = listingOf(megabytes * MB);
  const cold = measure(bodyText);
  const runs = Array.from({ length: RUNS }, () => measure(bodyText));
  const whole = timed(() => formatResponse(cold.response, { locale: 'en' }));
  const tab = cold.preview.value;
  return {
    megabytes: round(bodyText.length / MB),
    items: tab.preview?.totalItems ?? 0,
    previewItems: tab.preview?.shownItems ?? 0,
    previewChars: tab.text.length,
    coldParseMs: round(cold.parse.ms),
    coldPreviewMs: round(cold.preview.ms),
    coldPreviewCpuMs: round(cold.preview.cpuMs),
    coldFirstScreenMs: round(cold.parse.ms + cold.preview.ms),
    medianFirstScreenMs: round(median(runs.map((run) => run.parse.ms + run.preview.ms))),
    medianPreviewMs: round(median(runs.map((run) => run.preview.ms))),
    wholeFormatMs: round(whole.ms),
    wholeChars: whole.value.text.length,
  };
}

function main(): void {
  const sizes = [10, 20].map(benchSize);
  const result = {
    sizes,
    runs: RUNS,
    firstScreenBudgetMs: FIRST_SCREEN_BUDGET_MS,
    previewBudgetCpuMs: PREVIEW_BUDGET_CPU_MS,
    node: process.version,
    loadAverage: loadavg()[0],
    cores: cpus().length,
    at: new Date().toISOString(),
  };
  for (const size of sizes) {
    console.log(
      `responses: ${size.megabytes} MB, ${size.items} items: first screen ${size.coldFirstScreenMs} ms cold ` +
        `(parse ${size.coldParseMs} ms + preview of ${size.previewItems} items ${size.coldPreviewMs} ms, CPU ${size.coldPreviewCpuMs} ms; ` +
        `${size.previewChars} characters), median ${size.medianFirstScreenMs} ms (preview ${size.medianPreviewMs} ms) over ${RUNS} runs; ` +
        `whole response formatted: ${size.wholeFormatMs} ms, ${size.wholeChars} characters`,
    );
  }
  console.log(`targets: first screen < ${FIRST_SCREEN_BUDGET_MS} ms, preview < ${PREVIEW_BUDGET_CPU_MS} ms CPU; load average ${result.loadAverage.toFixed(1)} on ${result.cores} cores`);
  const folder = join(__dirname, 'results');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'responses.json'), JSON.stringify(result, null, 2) + '\n');
  const missed = sizes.filter((size) => size.coldFirstScreenMs >= FIRST_SCREEN_BUDGET_MS || size.coldPreviewCpuMs >= PREVIEW_BUDGET_CPU_MS || size.items === 0);
  if (missed.length > 0) {
    console.error(`missed a target: ${missed.map((size) => `${size.megabytes} MB`).join(', ')}`);
    process.exitCode = 1;
  }
}

if (require.main === module) main();
