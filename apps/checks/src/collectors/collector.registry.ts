import { BUILT_IN_CHECK_TYPES, type CheckCountry, type DataSet } from '@kyc/contracts';
import { Inject, Injectable } from '@nestjs/common';

import { chooseSearch, Collector, COLLECTORS, SearchSpec, WEBHOOK_PARSERS, WebhookParser } from './collector';

export interface PlannedDatabase {
  collector: Collector;
  search?: SearchSpec;
  invalidInputs?: string[];
}

export interface PlanInput {
  country: CheckCountry;
  type: string;
  region: string | null;
  inputs: Readonly<Record<string, string>>;
  /** Datasets with a weight: databases feeding none of them are not consulted. */
  weights: Partial<Record<DataSet, number>>;
}

const isBuiltIn = (type: string) => (BUILT_IN_CHECK_TYPES as readonly string[]).includes(type);

/** The collectors this process knows, by database id, and the webhook parsers of asynchronous ones. */
@Injectable()
export class CollectorRegistry {
  private readonly byId: Map<string, Collector>;
  private readonly parsers: Map<string, WebhookParser>;

  constructor(@Inject(COLLECTORS) collectors: Collector[], @Inject(WEBHOOK_PARSERS) parsers: WebhookParser[]) {
    this.byId = new Map(collectors.map((c) => [c.databaseId, c]));
    if (this.byId.size !== collectors.length) throw new Error('two collectors share a database id');
    this.parsers = new Map(parsers.map((p) => [p.webhookType, p]));
  }

  all(): Collector[] {
    return [...this.byId.values()];
  }

  get(databaseId: string): Collector | undefined {
    return this.byId.get(databaseId);
  }

  webhookParser(type: string): WebhookParser | undefined {
    return this.parsers.get(type);
  }

  /** Databases of a country (ALL: the international ones), as the health dashboard lists them. */
  ofCountry(country: string): Collector[] {
    return this.all().filter((c) => c.country === country);
  }

  /**
   * Databases that may serve a check of this country and type: the country's own and, except for
   * vehicles, the international ones (a check of country ALL only uses those). Custom types may
   * use every database of their country.
   */
  candidates(country: CheckCountry, type: string): Collector[] {
    return this.all().filter((c) => {
      const local = c.country === country;
      const international =
        c.country === 'ALL' && country !== 'ALL' && (!isBuiltIn(type) || (c.checkTypes as string[]).includes(type));
      if (!local && !international) return false;
      return !isBuiltIn(type) || (c.checkTypes as string[]).includes(type);
    });
  }

  /** Which databases a check runs (with the search each can make) and which it skips for lack of inputs. */
  plan(input: PlanInput): PlannedDatabase[] {
    return this.candidates(input.country, input.type)
      .filter((c) => !c.appliesTo || c.appliesTo({ country: input.country, type: input.type, region: input.region }))
      .filter((c) => c.dataSets.some((d) => input.weights[d] !== undefined))
      .map((collector) => {
        const chosen = chooseSearch(collector, input.type, input.inputs);
        return 'search' in chosen
          ? { collector, search: chosen.search }
          : { collector, invalidInputs: chosen.invalidInputs };
      });
  }
}
