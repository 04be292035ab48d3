import { mapRow, preparedQuery } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { CredentialsService } from '../credentials/credentials.service';
import { OutboundEntity } from '../outbounds/outbound.entity';
import { assertSendable, OutboundTemplate } from '../outbounds/outbounds.service';
import { ProviderCredentials } from '../provider/messaging-provider';

/** What a send reads: the outbound, and its tenant's provider credentials (null: none configured). */
export interface SendTarget {
  outbound: SendableOutbound;
  credentials: ProviderCredentials | null;
}

/**
 * The columns of an outbound a send reads: its rules (status, notification, variables), the
 * provider's template (definition) and the message row. Fewer columns than `o.*` (no dates, no
 * review fields) are fewer to describe, parse and map on every send.
 */
const SEND_COLUMNS = `o.id, o.tenant_id, o.line_id, o.line_phone, o.status, o.is_notification, o.variables, o.provider_name,
       o.category, o.language_code, o.template_type, o.content, o.header_text, o.footer, o.code_expiration_minutes,
       o.buttons, o.media_id, o.examples`;

/**
 * The outbound with its tenant's sealed credentials, in one round trip; named, so parsed and planned
 * once per connection (a primary-key lookup and a join on the credentials' primary key).
 */
const SEND_TARGET_SQL = `SELECT ${SEND_COLUMNS}, c.tenant_id AS credentials_tenant_id, c.waba_id AS credentials_waba_id, c.sealed AS credentials_sealed
  FROM outbounds o LEFT JOIN provider_credentials c ON c.tenant_id = o.tenant_id
 WHERE o.id = $1 AND o.tenant_id = $2`;

/** An outbound as a send reads it (SEND_COLUMNS): its template, rules and line. */
export type SendableOutbound = OutboundTemplate &
  Pick<OutboundEntity, 'id' | 'tenantId' | 'lineId' | 'linePhone' | 'status' | 'isNotification' | 'variables'>;

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
