import { timingSafeEqual } from 'node:crypto';

import { Clock, domainException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ApplicationsService } from '../applications/applications.service';
import { page } from '../pages/html';
import { AUTHORIZATION_DETAILS_PARAM } from '../provider/provider.configuration';
import { ProviderService } from '../provider/provider.service';
import { parseScopes } from '../scopes/scopes';
import { ApprovalOutcomeEntity } from './approval-outcome.entity';
import { approvalPage, ApprovalView } from './approval-page';
import { AttachmentsService } from './attachments.service';
import { AuthorizationDetail, parseAuthorizationDetails, readFormData } from './authorization-details';

export enum ApprovalErrorCode {
  ApprovalNotFound = 'approval_not_found',
  AttachmentNotFound = 'attachment_not_found',
}

export class ApprovalException extends domainException<ApprovalErrorCode>({
  [ApprovalErrorCode.ApprovalNotFound]: 404,
  [ApprovalErrorCode.AttachmentNotFound]: 404,
}) {}

/** What the page reads of a pending CIBA request. */
interface PendingRequest {
  clientId?: string;
  params?: unknown;
  scope?: string;
}

/**
 * The CIBA approval page: the user sees who asks (the application and its tenant), the binding message, the requested data, the authorization details
 * and their attachments, fills the requested form and approves or declines.
 */
@Injectable()
export class ApprovalsService {
  constructor(
    private readonly provider: ProviderService,
    private readonly attachments: AttachmentsService,
    private readonly applications: ApplicationsService,
    private readonly clock: Clock,
    @InjectRepository(ApprovalOutcomeEntity) private readonly outcomes: Repository<ApprovalOutcomeEntity>,
  ) {}

  async show(authReqId: string, sig: string): Promise<string> {
    return approvalPage(await this.view(authReqId, sig, await this.pending(authReqId, sig)));
  }

  /** Records the decision; an approval with invalid answers shows the page again (400) and records nothing. */
  async decide(
    authReqId: string,
    sig: string,
    decision: 'approve' | 'decline',
    submitted: Record<string, unknown>,
  ): Promise<{ status: number; html: string }> {
    const request = await this.pending(authReqId, sig);
    const provider = this.provider.provider;
    const fields = this.details(request).flatMap((d) => d.form_fields);
    const form = decision === 'approve' ? readFormData(fields, submitted) : { data: {}, errors: {} };
    if (Object.keys(form.errors).length) {
      const view = await this.view(authReqId, sig, request);
      return { status: 400, html: approvalPage({ ...view, values: submitted, errors: form.errors }) };
    }
    await this.outcomes.insert({
      authReqId,
      clientId: String(request.clientId),
      decision: decision === 'approve' ? 'approved' : 'declined',
      formData: form.data,
      decidedAt: this.clock.now(),
    });
    if (decision === 'decline') {
      await provider.backchannelResult(request, new this.provider.errors.AccessDenied('the user declined the request'));
      return { status: 200, html: page('Declined', '<h1 id="outcome">You declined the request.</h1>') };
    }
    const grant = new provider.Grant({ accountId: request.accountId!, clientId: request.clientId! });
    grant.addOIDCScope(String(request.scope ?? ''));
    await grant.save();
    await provider.backchannelResult(request, grant, {
      acr: 'urn:pass:loa:2',
      amr: ['otp', 'sms'],
      authTime: Math.floor(this.clock.now().getTime() / 1000),
    });
    return { status: 200, html: page('Approved', '<h1 id="outcome">You approved the request.</h1>') };
  }

  /** An attachment of a pending request, for its approver (the link of the page carries the signature). */
  async attachment(authReqId: string, sig: string, s3Key: string) {
    const request = await this.pending(authReqId, sig);
    const listed = this.details(request).some((d) => d.attachments.some((a) => a.s3_key === s3Key));
    const file = listed ? await this.attachments.content(s3Key) : null;
    if (!file) throw new ApprovalException(ApprovalErrorCode.AttachmentNotFound, 'no such attachment on this request');
    return file;
  }

  private async view(authReqId: string, sig: string, request: PendingRequest): Promise<ApprovalView> {
    const params = (request.params ?? {}) as Record<string, unknown>;
    const details = this.details(request);
    const application = await this.applications.find(String(request.clientId));
    return {
      authReqId,
      sig,
      requester: application ? { application: application.name, tenant: application.tenantId } : null,
      bindingMessage: typeof params.binding_message === 'string' ? params.binding_message : undefined,
      scopes: parseScopes(String(request.scope ?? '')),
      details,
      attachments: await this.attachments.describe(details.flatMap((d) => d.attachments.map((a) => a.s3_key))),
    };
  }

  /** The request's authorization_details (checked at bc-authorize). */
  private details(request: PendingRequest): AuthorizationDetail[] {
    const value = (request.params as Record<string, unknown> | undefined)?.[AUTHORIZATION_DETAILS_PARAM];
    return typeof value === 'string' && value ? parseAuthorizationDetails(value) : [];
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
