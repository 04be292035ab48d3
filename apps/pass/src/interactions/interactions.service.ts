import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';

import { ApplicationsService } from '../applications/applications.service';
import { SecretBox } from '../crypto/secret-box';
import { SignInMailer } from '../mail/sign-in-mailer';
import { ProviderService } from '../provider/provider.service';
import { parseScopes } from '../scopes/scopes';
import { PassUsersService } from '../users/pass-users.service';
import { codePage, consentPage, emailPage, stepUpPage } from './interaction-pages';
import { SignInCodeEntity } from './sign-in-code.entity';

/** What a page handler answers: HTML to show, or a URL to send the browser to. */
export type InteractionOutcome = { html: string; status?: number } | { redirect: string };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const CODE_TTL_MS = 10 * 60 * 1000;
const MAX_CODE_ATTEMPTS = 5;
const LOA1 = 'urn:pass:loa:1';
const LOA2 = 'urn:pass:loa:2';

/**
 * The end-user pages of the authorization flow (oidc-provider interactions): sign-in by e-mail and a
 * one-time code, consent listing the requested claims, and the step-up conditions of the application's
 * assurance policy (session_too_old, email_domain_not_allowed, acr_not_satisfied).
 */
@Injectable()
export class InteractionsService {
  constructor(
    private readonly provider: ProviderService,
    private readonly applications: ApplicationsService,
    private readonly users: PassUsersService,
    private readonly mailer: SignInMailer,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    @InjectRepository(SignInCodeEntity) private readonly codes: Repository<SignInCodeEntity>,
  ) {}

  async show(req: IncomingMessage, res: ServerResponse): Promise<InteractionOutcome> {
    const details = await this.provider.provider.interactionDetails(req, res);
    const client = await this.clientName(String(details.params.client_id));
    if (details.prompt.name === 'login') {
      const tooOld = details.prompt.reasons.includes('max_age') && details.session !== undefined;
      return {
        html: emailPage(
          details.uid,
          client,
          tooOld
            ? { code: 'session_too_old', text: 'Your session is too old for this application: sign in again.' }
            : undefined,
        ),
      };
    }
    return { html: consentPage(details.uid, client, parseScopes(text(details.params.scope))) };
  }

  async submitEmail(req: IncomingMessage, res: ServerResponse, email: string): Promise<InteractionOutcome> {
    const details = await this.provider.provider.interactionDetails(req, res);
    const application = await this.applications.find(String(details.params.client_id));
    const normalized = email.trim().toLowerCase();
    const domain = normalized.split('@')[1] ?? '';
    if (application?.allowedEmailDomains.length && !application.allowedEmailDomains.includes(domain))
      return {
        status: 400,
        html: emailPage(details.uid, application.name, {
          code: 'email_domain_not_allowed',
          text: `${application.name} accepts only e-mail addresses of: ${application.allowedEmailDomains.join(', ')}.`,
        }),
      };
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = this.clock.now();
    await this.codes.insert({
      id: randomUUID(),
      interactionUid: details.uid,
      email: normalized,
      codeHash: this.hash(details.uid, code),
      attempts: 0,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      consumedAt: null,
      createdAt: now,
    });
    await this.mailer.sendCode(normalized, code, application?.name ?? 'the application');
    return { html: codePage(details.uid, normalized) };
  }

  async submitCode(req: IncomingMessage, res: ServerResponse, code: string): Promise<InteractionOutcome> {
    const details = await this.provider.provider.interactionDetails(req, res);
    const pending = await this.codes.findOne({
      where: { interactionUid: details.uid, consumedAt: IsNull() },
      order: { createdAt: 'DESC' },
    });
    const now = this.clock.now();
    const application = await this.applications.find(String(details.params.client_id));
    if (!pending || pending.expiresAt <= now || pending.attempts >= MAX_CODE_ATTEMPTS)
      return {
        status: 400,
        html: emailPage(details.uid, application?.name ?? '', {
          code: 'code_expired',
          text: 'The code expired: ask for a new one.',
        }),
      };
    if (!this.matches(pending.codeHash, this.hash(details.uid, code))) {
      await this.codes.increment({ id: pending.id }, 'attempts', 1);
      return {
        status: 400,
        html: codePage(details.uid, pending.email, { code: 'invalid_code', text: 'That code is not right.' }),
      };
    }
    await this.codes.update({ id: pending.id }, { consumedAt: now });
    const user = await this.users.findOrCreate(pending.email);
    const acr = user.identity.verified ? LOA2 : LOA1;
    if (application?.requiredAcr === LOA2 && acr !== LOA2)
      return {
        status: 403,
        html: stepUpPage(
          details.uid,
          'acr_not_satisfied',
          `${application.name} needs a verified identity. Verify your identity once, then sign in again.`,
        ),
      };
    const redirect = await this.provider.provider.interactionResult(
      req,
      res,
      { login: { accountId: user.id, acr, amr: ['otp', 'email'], remember: true } },
      { mergeWithLastSubmission: false },
    );
    return { redirect };
  }

  async consent(req: IncomingMessage, res: ServerResponse, decision: 'allow' | 'deny'): Promise<InteractionOutcome> {
    const details = await this.provider.provider.interactionDetails(req, res);
    if (decision === 'deny') return this.finishWithError(req, res, 'the user declined to share the requested data');
    const { Grant } = this.provider.provider;
    const accountId = details.session!.accountId;
    const clientId = String(details.params.client_id);
    const grant =
      (details.grantId ? await Grant.find(details.grantId) : undefined) ?? new Grant({ accountId, clientId });
    grant.addOIDCScope(parseScopes(text(details.params.scope)).join(' '));
    const missingClaims = (details.prompt.details.missingOIDCClaims as string[] | undefined) ?? [];
    if (missingClaims.length) grant.addOIDCClaims(missingClaims);
    const grantId = await grant.save();
    const redirect = await this.provider.provider.interactionResult(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
    return { redirect };
  }

  async abort(req: IncomingMessage, res: ServerResponse): Promise<InteractionOutcome> {
    return this.finishWithError(req, res, 'the user cancelled the sign-in');
  }

  private async finishWithError(
    req: IncomingMessage,
    res: ServerResponse,
    description: string,
  ): Promise<InteractionOutcome> {
    const redirect = await this.provider.provider.interactionResult(
      req,
      res,
      { error: 'access_denied', error_description: description },
      { mergeWithLastSubmission: false },
    );
    return { redirect };
  }

  private async clientName(clientId: string): Promise<string> {
    return (await this.applications.find(clientId))?.name ?? 'the application';
  }

  private hash(uid: string, code: string): string {
    return createHmac('sha256', this.box.derive('sign-in-codes')).update(`${uid}:${code}`).digest('base64url');
  }

  private matches(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }
}
