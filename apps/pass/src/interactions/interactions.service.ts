import type { IncomingMessage, ServerResponse } from 'node:http';

import { OneTimeCodePurpose, OneTimeCodeService, waitInWords } from '@kyc/platform';
import { Injectable } from '@nestjs/common';

import { ApplicationsService } from '../applications/applications.service';
import { SecretBox } from '../crypto/secret-box';
import { SignInMailer } from '../mail/sign-in-mailer';
import { ProviderService } from '../provider/provider.service';
import { parseScopes } from '../scopes/scopes';
import { PassUsersService } from '../users/pass-users.service';
import { codePage, consentPage, emailPage, stepUpPage } from './interaction-pages';

/** The lockout notice: the person is told the wait in plain words. */
const tooManyAttempts = (seconds: number) => ({
  code: 'too_many_attempts',
  text: `Too many attempts: try again in ${waitInWords(seconds)}.`,
});

/** What a page handler answers: HTML to show, or a URL to send the browser to. */
export type InteractionOutcome = { html: string; status?: number } | { redirect: string };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const CODE_TTL_SECONDS = 10 * 60;
const LOA1 = 'urn:pass:loa:1';
const LOA2 = 'urn:pass:loa:2';

/**
 * The end-user pages of the authorization flow (oidc-provider interactions): sign-in by e-mail and a
 * one-time code, consent listing the requested claims, and the step-up conditions of the application's
 * assurance policy (session_too_old, email_domain_not_allowed, acr_not_satisfied). Sign-in codes are
 * the platform's one-time codes (OneTimeCodeService): per code and per person attempt limits, lockouts,
 * and limits on codes sent per address and per client address.
 */
@Injectable()
export class InteractionsService {
  private readonly signIn: OneTimeCodePurpose;

  constructor(
    private readonly provider: ProviderService,
    private readonly applications: ApplicationsService,
    private readonly users: PassUsersService,
    private readonly mailer: SignInMailer,
    private readonly codes: OneTimeCodeService,
    box: SecretBox,
  ) {
    this.signIn = { name: 'pass.sign-in', key: box.derive('sign-in-codes') };
  }

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

  async submitEmail(
    req: IncomingMessage,
    res: ServerResponse,
    email: string,
    clientAddress: string,
  ): Promise<InteractionOutcome> {
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
    const issued = await this.codes.issue(this.signIn, {
      reference: details.uid,
      subject: normalized,
      address: normalized,
      clientAddress,
      ttlSeconds: CODE_TTL_SECONDS,
    });
    if ('refused' in issued)
      return {
        status: 429,
        html: emailPage(
          details.uid,
          application?.name ?? 'the application',
          issued.refused === 'subject'
            ? tooManyAttempts(issued.retryAfterSeconds)
            : {
                code: 'too_many_codes',
                text: `Too many codes were asked for: try again in ${waitInWords(issued.retryAfterSeconds)}.`,
              },
        ),
      };
    const code = issued.code;
    await this.mailer.sendCode(normalized, code, application?.name ?? 'the application');
    return { html: codePage(details.uid, normalized) };
  }

  async submitCode(req: IncomingMessage, res: ServerResponse, code: string): Promise<InteractionOutcome> {
    const details = await this.provider.provider.interactionDetails(req, res);
    const application = await this.applications.find(String(details.params.client_id));
    const name = application?.name ?? 'the application';
    const check = await this.codes.verify(this.signIn, details.uid, code);
    if (check.outcome === 'locked')
      return { status: 429, html: emailPage(details.uid, name, tooManyAttempts(check.retryAfterSeconds)) };
    if (check.outcome === 'unavailable')
      return {
        status: 400,
        html: emailPage(
          details.uid,
          name,
          check.reason === 'attempts_used'
            ? { code: 'code_attempts_used', text: 'That code was tried too many times: ask for a new one.' }
            : { code: 'code_expired', text: 'The code expired: ask for a new one.' },
        ),
      };
    if (check.outcome === 'wrong')
      return {
        status: 400,
        html: check.attemptsLeft
          ? codePage(details.uid, check.subject, { code: 'invalid_code', text: 'That code is not right.' })
          : emailPage(details.uid, name, {
              code: 'code_attempts_used',
              text: 'That code is not right, and it was tried too many times: ask for a new one.',
            }),
      };
    const user = await this.users.findOrCreate(check.subject);
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
}
