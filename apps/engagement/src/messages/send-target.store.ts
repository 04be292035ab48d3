import { GroupCommit, mapRow, preparedQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { CredentialsService } from '../credentials/credentials.service';
import { OutboundEntity } from '../outbounds/outbound.entity';
import { assertSendable, OutboundTemplate } from '../outbounds/outbounds.service';
import { ProviderCredentials } from '../provider/messaging-provider';
import { SEND_TARGETS_SQL } from './send-target.sql';

/** What a send reads: the outbound, and its tenant's provider credentials (null: none configured). */
export interface SendTarget {
  outbound: SendableOutbound;
  credentials: ProviderCredentials | null;
}

/** Most sends whose outbounds one statement reads. */
const MAX_BATCH = 200;
/** Reads running at once; sends arriving meanwhile wait and are read together by the next one. */
const MAX_IN_FLIGHT = 2;

/** An outbound as a send reads it (SEND_COLUMNS): its template, rules and line. */
export type SendableOutbound = OutboundTemplate &
  Pick<OutboundEntity, 'id' | 'tenantId' | 'lineId' | 'linePhone' | 'status' | 'isNotification' | 'variables'>;

type SendTargetRow = Record<string, unknown> & {
  credentials_tenant_id: string | null;
  credentials_waba_id: string | null;
  credentials_sealed: string | null;
};

interface TargetKey {
  tenantId: string;
  outboundId: string;
}

/**
 * The read of an API send (SEND_TARGETS_SQL): one statement for the outbound and its tenant's credentials, shared
 * with the concurrent sends (as their writes, MessageStore). A read starts after every send it
 * serves arrived, so none sees an outbound older than its request; sends of the same outbound
 * share its row.
 */
@Injectable()
export class SendTargetStore {
  private readonly reads: GroupCommit<TargetKey, SendTarget | null>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly credentials: CredentialsService,
  ) {
    this.reads = new GroupCommit((keys) => this.read(keys), { maxBatch: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT });
  }

  /** The tenant's outbound (404 unless found, 409 unless APPROVED) and opened credentials. */
  async find(tenantId: string, outboundId: string): Promise<SendTarget> {
    const target = await this.reads.submit({ tenantId, outboundId });
    const outbound = (target?.outbound ?? null) as OutboundEntity | null;
    assertSendable(outboundId, outbound);
    return { outbound, credentials: target!.credentials };
  }

  /** One target per key (null: no such outbound of that tenant), read with one statement. */
  private async read(keys: TargetKey[]): Promise<(SendTarget | null)[]> {
    const key = (tenantId: string, outboundId: string) => `${tenantId}\u0000${outboundId}`;
    const distinct = [...new Map(keys.map((k) => [key(k.tenantId, k.outboundId), k])).values()];
    const rows = await preparedQuery<SendTargetRow>(this.dataSource, 'engagement:send-targets', SEND_TARGETS_SQL, [
      distinct.map((k) => k.outboundId),
      distinct.map((k) => k.tenantId),
    ]);
    const repository = this.dataSource.getRepository(OutboundEntity);
    const found = new Map<string, SendTarget>();
    for (const row of rows) {
      const outbound = mapRow(repository, row);
      const { credentials_tenant_id: owner, credentials_waba_id: wabaId, credentials_sealed: sealed } = row;
      found.set(key(outbound.tenantId, outbound.id), {
        outbound,
        credentials: owner && wabaId && sealed ? this.credentials.opened({ tenantId: owner, wabaId, sealed }) : null,
      });
    }
    return keys.map((k) => found.get(key(k.tenantId, k.outboundId)) ?? null);
  }
}
