// The government identification registry of the sandbox: the national registries (RENAPER, RENIEC,
// Registraduría, RENAPO, Receita Federal, Registro Civil) cannot be reached from here, so this adapter
// answers from a fixed list of fictitious people, with a registry's latency and its outages.
// The records are documented in docs/services/validations-engines.md ("Sandbox government registry").

import type { GovernmentRegistry } from '../engine.ports';

export interface SandboxRegistryRecord {
  country: string;
  documentNumber: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
}

/** Fictitious people (any resemblance to real people is accidental); numbers pass their country's algorithm. */
export const SANDBOX_REGISTRY_RECORDS: readonly SandboxRegistryRecord[] = [
  {
    country: 'CO',
    documentNumber: '1020304050',
    firstName: 'María José',
    lastName: 'Pérez Gómez',
    dateOfBirth: '1990-05-17',
  },
  {
    country: 'CO',
    documentNumber: '80123456',
    firstName: 'Juan Carlos',
    lastName: 'Rodríguez Silva',
    dateOfBirth: '1978-11-02',
  },
  {
    country: 'BR',
    documentNumber: '52998224725',
    firstName: 'Ana Beatriz',
    lastName: 'Souza Lima',
    dateOfBirth: '1988-03-09',
  },
  {
    country: 'MX',
    documentNumber: 'BOXW310820HNERXN09',
    firstName: 'Wenceslao',
    lastName: 'Bojorquez',
    dateOfBirth: '1931-08-20',
  },
  {
    country: 'CL',
    documentNumber: '12345678-5',
    firstName: 'Camila Andrea',
    lastName: 'Muñoz Rojas',
    dateOfBirth: '1992-07-21',
  },
  {
    country: 'PE',
    documentNumber: '45678912',
    firstName: 'Luis Alberto',
    lastName: 'Quispe Mamani',
    dateOfBirth: '1985-01-30',
  },
];

/** A number whose lookup fails as an unavailable registry would (the check is then skipped, not failed). */
export const SANDBOX_REGISTRY_UNAVAILABLE_NUMBER = '99999999';

export interface SandboxRegistryOptions {
  /** Simulated round trip, milliseconds (default 30; 0 in unit tests). */
  latencyMs?: number;
}

const key = (country: string, number: string) =>
  `${country.toUpperCase()}:${number.toUpperCase().replace(/[^0-9A-Z]/g, '')}`;

export class SandboxGovernmentRegistry implements GovernmentRegistry {
  private readonly records = new Map<string, SandboxRegistryRecord>(
    SANDBOX_REGISTRY_RECORDS.map((r) => [key(r.country, r.documentNumber), r]),
  );

  constructor(private readonly options: SandboxRegistryOptions = {}) {}

  async lookup(query: { country: string; documentType: string; documentNumber: string }) {
    const latency = this.options.latencyMs ?? 30;
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    if (query.documentNumber.replace(/\D/g, '') === SANDBOX_REGISTRY_UNAVAILABLE_NUMBER)
      throw new Error('sandbox registry: service unavailable');
    const record = this.records.get(key(query.country, query.documentNumber));
    if (!record) return { found: false as const };
    return {
      found: true as const,
      firstName: record.firstName,
      lastName: record.lastName,
      dateOfBirth: record.dateOfBirth,
    };
  }
}
