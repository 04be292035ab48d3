import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ProviderService } from '../provider/provider.service';
import { parseScopes } from '../scopes/scopes';
import { ApprovalOutcomeEntity } from './approval-outcome.entity';
import { ApprovalErrorCode, ApprovalException } from './approvals.exception';

/** GET /v1/oauth2/approval-outcome: the decision and form data of a CIBA request of the caller's application. */
@Injectable()
export class ApprovalOutcomesService {
  constructor(
    @InjectRepository(ApprovalOutcomeEntity) private readonly outcomes: Repository<ApprovalOutcomeEntity>,
    private readonly provider: ProviderService,
  ) {}

  async get(authorization: string | undefined, authReqId: string) {
    const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(authorization ?? '');
    const token = match ? await this.provider.provider.AccessToken.find(match[1]) : undefined;
    if (!token || token.isExpired)
      throw new ApprovalException(ApprovalErrorCode.InvalidToken, 'missing or invalid bearer token');
    if (!parseScopes(token.scope ?? '').includes('approval:read'))
      throw new ApprovalException(ApprovalErrorCode.InsufficientScope, 'the token needs the scope approval:read');
    const outcome = await this.outcomes.findOneBy({ authReqId });
    if (!outcome || outcome.clientId !== token.clientId)
      throw new ApprovalException(
        ApprovalErrorCode.OutcomeNotFound,
        'no decided approval of this application has that auth_req_id',
      );
    return {
      auth_req_id: outcome.authReqId,
      decision: outcome.decision,
      form_data: outcome.formData,
      decided_at: outcome.decidedAt.toISOString(),
    };
  }
}
