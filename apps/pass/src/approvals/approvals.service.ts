import { timingSafeEqual } from 'node:crypto';

import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ApplicationsService } from '../applications/applications.service';
import { PageAnswerException } from '../pages/page-answer.exception';
import { AppView, PageAnswer, PageContext } from '../pages/pass-page';
import { AuthorizationDetail, parseAuthorizationDetails, readFormData } from '../provider/authorization-details';
import { AUTHORIZATION_DETAILS_PARAM } from '../provider/provider.configuration';
import { ProviderService } from '../provider/provider.service';
import { parseScopes } from '../scopes/scopes';
import { ApprovalOutcomeEntity } from './approval-outcome.entity';
import {
  alreadyDecidedPage,
  approvalExpiredPage,
  approvalPage,
  ApprovalView,
  badLinkPage,
  decidedNowPage,
} from './approval-page';
import { ApprovalErrorCode, ApprovalException } from './approvals.exception';
import { AttachmentsService } from './attachments.service';

/** What the page reads of a pending CIBA request. */
interface PendingRequest {
  clientId?: string;
  params?: unknown;
  scope?: string;
}

const isUniqueViolation = (err: unknown) => (err as { driverError?: { code?: string } })?.driverError?.code === '23505';

/**
 * The CIBA approval page: the user sees who asks (the application and its tenant), the binding message, the
 * requested data, the authorization details in words and their attachments, fills the requested form and
 * approves or declines. A link that does not verify, a request that expired and one already decided each
 * have their page (PageAnswerException), in the approver's language.
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

  async show(authReqId: string, sig: string, c: PageContext): Promise<PageAnswer> {
    const request = await this.pending(authReqId, sig, c);
    return { status: 200, html: approvalPage(c, await this.view(authReqId, sig, request)) };
  }

  /** Records the decision; an approval with invalid answers shows the page again (400) and records nothing. */
  async decide(
    authReqId: string,
    sig: string,
    decision: 'approve' | 'decline',
    submitted: Record<string, unknown>,
    c: PageContext,
  ): Promise<PageAnswer> {
    const request = await this.pending(authReqId, sig, c);
    const provider = this.provider.provider;
    const fields = this.details(request).flatMap((d) => d.form_fields);
    const form = decision === 'approve' ? readFormData(fields, submitted) : { data: {}, errors: {} };
    if (Object.keys(form.errors).length) {
      const view = await this.view(authReqId, sig, request);
      return { status: 400, html: approvalPage(c, { ...view, values: submitted, errors: form.errors }) };
    }
    const app = await this.requester(request.clientId);
    try {
      await this.outcomes.insert({
        authReqId,
        clientId: String(request.clientId),
        decision: decision === 'approve' ? 'approved' : 'declined',
        formData: form.data,
        decidedAt: this.clock.now(),
      });
    } catch (err) {
      // Two submissions at once (a double click): the first decided, the second is told so.
      if (!isUniqueViolation(err)) throw err;
      throw new PageAnswerException(await this.decidedOrExpired(authReqId, c));
    }
    if (decision === 'decline') {
      await provider.backchannelResult(request, new this.provider.errors.AccessDenied('the user declined the request'));
      return decidedNowPage(c, decision, app ?? undefined);
    }
    const grant = new provider.Grant({ accountId: request.accountId!, clientId: request.clientId! });
    grant.addOIDCScope(String(request.scope ?? ''));
    await grant.save();
    await provider.backchannelResult(request, grant, {
      acr: 'urn:pass:loa:2',
      amr: ['otp', 'sms'],
      authTime: Math.floor(this.clock.now().getTime() / 1000),
    });
    return decidedNowPage(c, decision, app ?? undefined);
  }

  /** An attachment of a pending request, for its approver (the link of the page carries the signature). */
  async attachment(authReqId: string, sig: string, s3Key: string, c: PageContext) {
    const request = await this.pending(authReqId, sig, c);
    const listed = this.details(request).some((d) => d.attachments.some((a) => a.s3_key === s3Key));
    const file = listed ? await this.attachments.content(s3Key) : null;
    if (!file) throw new ApprovalException(ApprovalErrorCode.AttachmentNotFound, 'no such attachment on this request');
    return file;
  }

  private async view(authReqId: string, sig: string, request: PendingRequest): Promise<ApprovalView> {
    const params = (request.params ?? {}) as Record<string, unknown>;
    const details = this.details(request);
    return {
      authReqId,
      sig,
      requester: await this.requester(request.clientId),
      bindingMessage: typeof params.binding_message === 'string' ? params.binding_message : undefined,
      scopes: parseScopes(String(request.scope ?? '')),
      details,
      attachments: await this.attachments.describe(details.flatMap((d) => d.attachments.map((a) => a.s3_key))),
    };
  }

  /** The application that asks and its tenant, as the operator registered them (no link: it is on a phone). */
  private async requester(clientId: string | undefined): Promise<AppView | null> {
    const application = clientId ? await this.applications.find(String(clientId)) : undefined;
    return application ? { name: application.name, tenant: application.tenantId } : null;
  }

  /** The request's authorization_details (checked at bc-authorize). */
  private details(request: PendingRequest): AuthorizationDetail[] {
    const value = (request.params as Record<string, unknown> | undefined)?.[AUTHORIZATION_DETAILS_PARAM];
    return typeof value === 'string' && value ? parseAuthorizationDetails(value) : [];
  }

  /** The pending request the signed link names, or the page of a bad link, an expired or a decided request. */
  private async pending(authReqId: string, sig: string, c: PageContext) {
    const expected = Buffer.from(this.provider.approvalSignature(authReqId));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new PageAnswerException(badLinkPage(c));
    const request = await this.provider.provider.BackchannelAuthenticationRequest.find(authReqId);
    if (!request || request.grantId || request.error)
      throw new PageAnswerException(await this.decidedOrExpired(authReqId, c));
    return request;
  }

  private async decidedOrExpired(authReqId: string, c: PageContext): Promise<PageAnswer> {
    const outcome = await this.outcomes.findOneBy({ authReqId });
    if (!outcome) return approvalExpiredPage(c);
    return alreadyDecidedPage(c, outcome.decision, (await this.requester(outcome.clientId)) ?? undefined);
  }
}
