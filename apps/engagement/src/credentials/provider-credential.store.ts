import { preparedQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';

import { ProviderCredentialEntity } from './provider-credential.entity';
import * as SQL from './provider-credential.sql';

/** The raw reads of provider credentials, their SQL in provider-credential.sql.ts. */
@Injectable()
export class ProviderCredentialStore {
  constructor(
    @InjectRepository(ProviderCredentialEntity) private readonly repo: Repository<ProviderCredentialEntity>,
  ) {}

  /** The sealed credentials of a WABA: one named prepared statement, on m's connection when given. */
  async byWaba(
    wabaId: string,
    m?: EntityManager,
  ): Promise<{ tenant_id: string; waba_id: string; sealed: string } | undefined> {
    const [row] = await preparedQuery<{ tenant_id: string; waba_id: string; sealed: string }>(
      this.repo.manager.connection,
      'engagement:credentials-by-waba',
      SQL.BY_WABA,
      [wabaId],
      m,
    );
    return row;
  }
}
