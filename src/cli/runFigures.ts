/**
 * The run's figures as name and value, in the order every report shows them: environment, tenants,
 * data, filters, duration, calls, retries, waits for the rate limit, 429 answers, and each
 * organization's quota spent. JUnit's <properties>, the HTML and Markdown headers. Pure.
 */
import type { RunReport } from './report';

export function runFigures(report: RunReport): Array<[string, string]> {
  const figures: Array<[string, string]> = [
    ['environment', report.environment],
    ['tenants', report.tenants && report.tenants.length > 0 ? report.tenants.join(', ') : 'active'],
  ];
  if (report.data) figures.push(['data', `${report.data.file} (${report.data.rows} rows)`]);
  if (report.filters?.tags) figures.push(['tags', report.filters.tags.join(', ')]);
  if (report.filters?.name !== undefined) figures.push(['name', report.filters.name]);
  figures.push(['duration', `${(report.timeMs / 1000).toFixed(1)} s`], ['requests.calls', String(report.calls)]);
  const statistics = report.statistics;
  if (statistics) {
    figures.push(
      ['client.calls', String(statistics.calls)],
      ['client.retries', String(statistics.retries)],
      ['client.rateLimitWaits', String(statistics.rateLimitWaits)],
      ['client.rateLimitWaitMs', String(statistics.rateLimitWaitMs)],
      ['client.answers429', String(statistics.answers429)],
    );
  }
  for (const quota of report.quota ?? []) {
    const reading = quota.used !== undefined && quota.limit !== undefined ? `, ${quota.used}/${quota.limit} this week` : '';
    figures.push([`quota.${quota.organization}`, `${quota.calls} calls${reading}`]);
  }
  return figures;
}
