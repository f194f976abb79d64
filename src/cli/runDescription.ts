/**
 * What a run report says about the run as a whole, besides its requests: the tenants it ran for, its
 * data file, its filters, the quota each organization spent (the calls it counted this run, its last
 * reading) and what the client did (calls, retries, waits for the rate limit, 429 answers). Pure.
 */
import type { QuotaReading } from '../api/types';
import type { PlannedFile } from './fileRun';
import type { Arguments } from './options';
import type { OrganizationQuota, RunReport } from './report';
import type { StatisticsCounter } from './runStatistics';

export interface RunFacts {
  planned: readonly PlannedFile[];
  args: Pick<Arguments, 'data' | 'tags' | 'name'>;
  counter: Pick<StatisticsCounter, 'statistics'>;
  readings: readonly QuotaReading[];
}

export function describeRun(report: RunReport, facts: RunFacts): RunReport {
  const requests = report.files.flatMap((file) => file.requests);
  const tenants = [...new Set(requests.flatMap((request) => (request.tenant === undefined ? [] : [request.tenant])))];
  const rows = facts.planned.reduce((most, file) => Math.max(most, ...file.cells.map((cell) => cell.row?.number ?? 0)), 0);
  const dataFile = facts.args.data ?? facts.planned.find((file) => file.parsed.data)?.parsed.data?.path;
  const filters = { ...(facts.args.tags.length > 0 ? { tags: facts.args.tags } : {}), ...(facts.args.name !== undefined ? { name: facts.args.name } : {}) };
  return {
    ...report,
    tenants,
    ...(dataFile !== undefined && rows > 0 ? { data: { file: dataFile, rows } } : {}),
    ...(Object.keys(filters).length > 0 ? { filters } : {}),
    quota: quotaSpent(requests, facts.readings),
    statistics: { ...facts.counter.statistics },
  };
}

/** Per organization a call of the run counted against: its calls, and its last reading of the week. */
export function quotaSpent(requests: RunReport['files'][number]['requests'], readings: readonly QuotaReading[]): OrganizationQuota[] {
  const calls = new Map<string, number>();
  for (const request of requests) if (request.organization !== undefined) calls.set(request.organization, (calls.get(request.organization) ?? 0) + request.calls);
  return [...calls].map(([organization, count]) => {
    const reading = readings.find((candidate) => candidate.organization === organization);
    return { organization, calls: count, ...(reading ? { used: reading.used, limit: reading.limit } : {}) };
  });
}
