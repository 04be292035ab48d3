import { Caller, Clock, decodeStartKey, encodeStartKey, Page } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { ProfileStore } from '../profiles/profile.store';
import { DECISION_VARIABLES, DecisionVariable } from './decision-variable.catalog';
import { ListAvailableVariablesQuery } from './dto/list-available.query';
import { ListDecisionValuesQuery } from './dto/list-values.query';

const PAGE = 20;
const DAY_MS = 86_400_000;

export interface CustomerValues {
  customer_id: string;
  values: Record<string, unknown>;
}

const matchesText = (v: DecisionVariable, text: string | undefined) =>
  !text || `${v.name} ${v.description}`.toLowerCase().includes(text.toLowerCase());

/** The catalog of decision variables and their values per customer over a date range. */
@Injectable()
export class DecisionVariablesService {
  constructor(
    private readonly profiles: ProfileStore,
    private readonly clock: Clock,
  ) {}

  available(query: ListAvailableVariablesQuery): Page<DecisionVariable> {
    const any = <T>(list: T[] | undefined, value: T) => !list?.length || list.includes(value);
    const matching = DECISION_VARIABLES.filter(
      (v) =>
        (query.active === undefined || v.active === query.active) &&
        any(query.category, v.category) &&
        any(query.id, v.id) &&
        any(query.level, v.level) &&
        any(query.name, v.name) &&
        any(query.product, v.product) &&
        any(query.data_type, v.data_type) &&
        matchesText(v, query.search),
    );
    const after = decodeStartKey(query.start_key);
    const from = after ? matching.findIndex((v) => v.id > String(after[1])) : 0;
    const limit = query.limit ?? PAGE;
    const items = from < 0 ? [] : matching.slice(from, from + limit);
    const more = from >= 0 && matching.length > from + limit;
    return { items, nextKey: more ? encodeStartKey(['dv', items[items.length - 1].id]) : undefined };
  }

  /** Values of the selected variables for each customer (id order), from their transactions in [start_date, end_date]. */
  async values(
    caller: Caller,
    query: ListDecisionValuesQuery,
  ): Promise<Page<CustomerValues> & { startDate: string; endDate: string }> {
    const endDate = query.end_date ?? this.clock.now().toISOString().slice(0, 10);
    const startDate =
      query.start_date ?? new Date(new Date(`${endDate}T00:00:00Z`).getTime() - 30 * DAY_MS).toISOString().slice(0, 10);
    const variables = DECISION_VARIABLES.filter(
      (v) =>
        v.active &&
        (!query.categories?.length || query.categories.includes(v.category)) &&
        (!query.names?.length || query.names.includes(v.name)) &&
        matchesText(v, query.search),
    );
    const after = decodeStartKey(query.start_key);
    const limit = query.limit ?? PAGE;
    const profiles = await this.profiles.pageIds(
      caller.tenantId,
      after ? String(after[1]) : '',
      query.customer_id ?? null,
      limit + 1,
    );
    const ids = profiles.slice(0, limit);
    const byProfile = new Map<string, Record<string, unknown>>();
    if (ids.length && variables.length) {
      // The aggregates are the catalog's own SQL (no input reaches the text); ids and dates are parameters.
      const rows = await this.profiles.variableValues(
        caller.tenantId,
        ids,
        variables.map((v) => v.sql),
        startDate,
        endDate,
      );
      for (const row of rows)
        byProfile.set(String(row.__id), Object.fromEntries(variables.map((v, i) => [v.name, row[`v${i}`] ?? null])));
    }
    return {
      items: ids.map((id) => ({ customer_id: id, values: byProfile.get(id) ?? {} })),
      nextKey: profiles.length > limit ? encodeStartKey(['dv', ids[ids.length - 1]]) : undefined,
      startDate,
      endDate,
    };
  }
}
