import { timingSafeEqual } from 'node:crypto';

import { Clock, domainException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { SCOPE_CLAIMS } from '../interactions/interaction-pages';
import { escapeHtml, page } from '../pages/html';
import { ProviderService } from '../provider/provider.service';
import { parseScopes } from '../scopes/scopes';
import { ApprovalOutcomeEntity } from './approval-outcome.entity';

export enum ApprovalErrorCode {
  ApprovalNotFound = 'approval_not_found',
}

export class ApprovalException extends domainException<ApprovalErrorCode>({
  [ApprovalErrorCode.ApprovalNotFound]: 404,
}) {}

/** The CIBA approval page: the user sees the binding message and the requested data, approves or declines. */
@Injectable()
export class ApprovalsService {
  constructor(
    private readonly provider: ProviderService,
    private readonly clock: Clock,
    @InjectRepository(ApprovalOutcomeEntity) private readonly outcomes: Repository<ApprovalOutcomeEntity>,
  ) {}

  async show(authReqId: string, sig: string): Promise<string> {
    const request = await this.pending(authReqId, sig);
    const params = (request.params ?? {}) as Record<string, unknown>;
    const scopes = parseScopes(String(request.scope ?? ''));
    return page(
      'Approve the request',
      `<h1>Approve the request</h1>` +
        (params.binding_message ? `<p id="binding_message">${escapeHtml(params.binding_message)}</p>` : '') +
        (typeof params.authorization_details === 'string'
          ? `<pre id="authorization_details">${escapeHtml(params.authorization_details)}</pre>`
          : '') +
        `<ul id="claims">${scopes.map((s) => `<li data-scope="${escapeHtml(s)}">${escapeHtml(SCOPE_CLAIMS[s] ?? s)}</li>`).join('')}</ul>` +
        `<form method="post" action="/approvals/${escapeHtml(encodeURIComponent(authReqId))}">` +
        `<input type="hidden" name="sig" value="${escapeHtml(sig)}">` +
        `<button name="decision" value="approve" id="approve">Approve</button>` +
        `<button name="decision" value="decline" id="decline">Decline</button></form>`,
    );
  }

  async decide(authReqId: string, sig: string, decision: 'approve' | 'decline'): Promise<string> {
    const request = await this.pending(authReqId, sig);
    const provider = this.provider.provider;
    await this.outcomes.insert({
      authReqId,
      clientId: String(request.clientId),
      decision: decision === 'approve' ? 'approved' : 'declined',
      formData: {},
      decidedAt: this.clock.now(),
    });
    if (decision === 'decline') {
      await provider.backchannelResult(request, new this.provider.errors.AccessDenied('the user declined the request'));
      return page('Declined', '<h1 id="outcome">You declined the request.</h1>');
    }
    const grant = new provider.Grant({ accountId: request.accountId!, clientId: request.clientId! });
    grant.addOIDCScope(String(request.scope ?? ''));
    await grant.save();
    await provider.backchannelResult(request, grant, {
      acr: 'urn:pass:loa:2',
      amr: ['otp', 'sms'],
      authTime: Math.floor(this.clock.now().getTime() / 1000),
    });
    return page('Approved', '<h1 id="outcome">You approved the request.</h1>');
  }

  private async pending(authReqId: string, sig: string) {
    const expected = Buffer.from(this.provider.approvalSignature(authReqId));
    const given = Buffer.from(sig);
    const request =
      expected.length === given.length && timingSafeEqual(expected, given)
        ? await this.provider.provider.BackchannelAuthenticationRequest.find(authReqId)
        : undefined;
    if (!request || request.grantId || request.error)
      throw new ApprovalException(
        ApprovalErrorCode.ApprovalNotFound,
        'this approval request does not exist, expired or was decided',
      );
    return request;
  }
}
