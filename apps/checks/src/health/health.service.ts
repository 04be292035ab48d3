import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { CollectorRegistry } from '../collectors/collector.registry';
import { CollectorRunStore } from './collector-run.store';
import { HealthQuery } from './dto/health.query';

export const HEALTH_STATUSES = [
  'operational',
  'degraded_performance',
  'partial_outage',
  'major_outage',
  'undetermined',
] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** operational >= 90 % successful runs; degraded 50-90 %; partial outage 10-50 %; major outage < 10 %; undetermined without runs. */
export function healthStatus(ok: number, total: number): HealthStatus {
  if (!total) return 'undetermined';
  const rate = ok / total;
  if (rate >= 0.9) return 'operational';
  if (rate >= 0.5) return 'degraded_performance';
  if (rate >= 0.1) return 'partial_outage';
  return 'major_outage';
}

/** Public Database schema, plus the status over the hour up to the requested time. */
export interface DatabaseHealth {
  database_id: string;
  database_name: string;
  data_sets: string[];
  status: HealthStatus;
  runs: number;
  average_latency_ms: number | null;
  hourly_status: HealthStatus[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Health of the databases of a country, computed from what the collectors really did (every
 * answer, failure and timeout is a row of collector_runs with its latency). Platform-wide: the
 * databases are shared by every tenant, and no tenant data is returned.
 */
@Injectable()
export class HealthService {
  constructor(
    private readonly runs: CollectorRunStore,
    private readonly registry: CollectorRegistry,
    private readonly clock: Clock,
  ) {}

  async databases(query: HealthQuery): Promise<DatabaseHealth[]> {
    const collectors = this.registry.ofCountry(query.country);
    if (!collectors.length) return [];
    const now = this.clock.now().getTime();
    const at = query.unixTimestampSeconds !== undefined ? query.unixTimestampSeconds * 1000 : now;
    const offset = (query.unixtimezoneOffsetSeconds ?? 0) * 1000;
    // The local day containing `at`, as UTC instants.
    const dayStart = Math.floor((at + offset) / DAY) * DAY - offset;
    const windowStart = at - HOUR;
    const from = Math.min(dayStart, windowStart);
    const to = Math.max(dayStart + DAY, at);
    const rows = await this.runs.health([
      query.country,
      collectors.map((c) => c.databaseId),
      new Date(dayStart),
      new Date(dayStart + DAY),
      new Date(windowStart),
      new Date(at),
      new Date(from),
      new Date(to + 1),
    ]);
    return collectors.map((c) => {
      const mine = rows.filter((r) => r.database_id === c.databaseId);
      const window = mine.filter((r) => r.in_window);
      const ok = window.reduce((s, r) => s + r.ok, 0);
      const total = window.reduce((s, r) => s + r.total, 0);
      const latency = total ? window.reduce((s, r) => s + (r.latency ?? 0) * r.total, 0) / total : null;
      const hourly = Array.from({ length: 24 }, (_, h) => {
        if (dayStart + h * HOUR > now) return 'undetermined' as const;
        const inHour = mine.filter((r) => r.hour === h);
        return healthStatus(
          inHour.reduce((s, r) => s + r.ok, 0),
          inHour.reduce((s, r) => s + r.total, 0),
        );
      });
      return {
        database_id: c.databaseId,
        database_name: c.databaseName,
        data_sets: [...c.dataSets],
        status: healthStatus(ok, total),
        runs: total,
        average_latency_ms: latency === null ? null : Math.round(latency),
        hourly_status: hourly,
      };
    });
  }
}
