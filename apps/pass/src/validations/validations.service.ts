import { randomUUID } from 'node:crypto';

import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';

import { ApplicationsService } from '../applications/applications.service';
import { ProviderService } from '../provider/provider.service';
import { parseScopes } from '../scopes/scopes';
import { WriteValidationsDto } from './dto/write-validations.dto';
import { ExternalValidationEntity } from './external-validation.entity';
import { ValidationErrorCode, ValidationException } from './validations.exception';

const present = (v: ExternalValidationEntity) => ({
  validation_id: v.id,
  type: v.type,
  resource_id: v.resourceId,
  verified: v.verified,
  ...(v.resourceUrl ? { resource_url: v.resourceUrl } : {}),
  ...(v.processId ? { process_id: v.processId } : {}),
  ...(v.document ? { document: v.document } : {}),
  ...(v.face ? { face: v.face } : {}),
  created_at: v.createdAt.toISOString(),
});

/**
 * POST /v1/oauth2/validations: append-only writes of validations done elsewhere, for the user behind the
 * token. Needs the restricted scope validations:write, enabled for the application by the operator. Items
 * whose process_id is already recorded for the application are skipped (idempotent replays).
 */
@Injectable()
export class ValidationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly provider: ProviderService,
    private readonly applications: ApplicationsService,
    private readonly clock: Clock,
  ) {}

  async write(authorization: string | undefined, dto: WriteValidationsDto) {
    const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(authorization ?? '');
    const token = match ? await this.provider.provider.AccessToken.find(match[1]) : undefined;
    if (!token || token.isExpired)
      throw new ValidationException(ValidationErrorCode.InvalidToken, 'missing or invalid bearer token');
    if (!parseScopes(token.scope ?? '').includes('validations:write'))
      throw new ValidationException(
        ValidationErrorCode.InsufficientScope,
        'the token needs the scope validations:write',
      );
    const application = await this.applications.find(String(token.clientId));
    if (!application?.restrictedScopes.includes('validations:write'))
      throw new ValidationException(ValidationErrorCode.ClientNotAllowed, 'the application may not write validations');
    const clientId = application.clientId;
    const written = await this.dataSource.transaction(async (manager) => {
      const processIds = dto.validations.map((v) => v.process_id).filter((p): p is string => !!p);
      const known = processIds.length
        ? new Set(
            (await manager.find(ExternalValidationEntity, { where: { clientId, processId: In(processIds) } })).map(
              (v) => v.processId,
            ),
          )
        : new Set<string | null>();
      const seen = new Set<string>();
      const rows = dto.validations
        .filter((v) => {
          if (!v.process_id) return true;
          if (known.has(v.process_id) || seen.has(v.process_id)) return false;
          seen.add(v.process_id);
          return true;
        })
        .map((v) =>
          manager.create(ExternalValidationEntity, {
            id: randomUUID(),
            clientId,
            userId: String(token.accountId),
            type: v.type,
            resourceId: v.resource_id,
            verified: v.verified,
            resourceUrl: v.resource_url ?? null,
            processId: v.process_id ?? null,
            document: v.type === 'document' && v.document ? { ...v.document } : null,
            face: v.type === 'face' && v.face ? { ...v.face } : null,
            createdAt: this.clock.now(),
          }),
        );
      if (rows.length)
        await manager.createQueryBuilder().insert().into(ExternalValidationEntity).values(rows).orIgnore().execute();
      return rows;
    });
    return { validations: written.map(present) };
  }
}
