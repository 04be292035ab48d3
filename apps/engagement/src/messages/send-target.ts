import { mapRow, preparedQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { CredentialsService } from '../credentials/credentials.service';
import { OutboundEntity } from '../outbounds/outbound.entity';
import { assertSendable } from '../outbounds/outbounds.service';
import { ProviderCredentials } from '../provider/messaging-provider';

/** What a send reads: the outbound, and its tenant's provider credentials (null: none configured). */
export interface SendTarget {
  outbound: OutboundEntity;
  credentials: ProviderCredentials | null;
}

/**
 * The outbound with its tenant's sealed credentials, in one round trip; named, so parsed and planned
 * once per connection (a primary-key lookup and a join on the credentials' primary key).
 */
const SEND_TARGET_SQL = `SELECT o.*, c.tenant_id AS credentials_tenant_id, c.waba_id AS credentials_waba_id, c.sealed AS credentials_sealed
  FROM outbounds o LEFT JOIN provider_credentials c ON c.tenant_id = o.tenant_id
 WHERE o.id = $1 AND o.tenant_id = $2`;

type SendTargetRow = Record<string, unknown> & {
  credentials_tenant_id: string | null;
  credentials_waba_id: string | null;
  credentials_sealed: string | null;
};

/** The read of an API send: one statement instead of an outbound query and a credentials query. */
@Injectable()
export class SendTargets {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly credentials: CredentialsService,
  ) {}

  /** The tenant's outbound (404 unless found, 409 unless APPROVED) and opened credentials. */
  async find(tenantId: string, outboundId: string): Promise<SendTarget> {
    const [row] = await preparedQuery<SendTargetRow>(this.dataSource, 'engagement:send-target', SEND_TARGET_SQL, [
      outboundId,
      tenantId,
    ]);
    const outbound = row ? mapRow(this.dataSource.getRepository(OutboundEntity), row) : null;
    assertSendable(outboundId, outbound);
    const { credentials_tenant_id: owner, credentials_waba_id: wabaId, credentials_sealed: sealed } = row;
    return {
      outbound,
      credentials: owner && wabaId && sealed ? this.credentials.opened({ tenantId: owner, wabaId, sealed }) : null,
    };
  }
}
