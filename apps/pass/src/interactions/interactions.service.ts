import type { IncomingMessage, ServerResponse } from 'node:http';

import { OneTimeCodePurpose, OneTimeCodeService } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import type { InteractionResults } from 'oidc-provider';

import { ApplicationEntity } from '../applications/application.entity';
import { ApplicationsService } from '../applications/applications.service';
import { SecretBox } from '../crypto/secret-box';
import { SignInMailer } from '../mail/sign-in-mailer';
import { PageAnswerException } from '../pages/page-answer.exception';
import { AppView, expiredPage, PageAnswer, PageContext, pageContext } from '../pages/pass-page';
import { ProviderService } from '../provider/provider.service';
import { parseScopes } from '../scopes/scopes';
import { PassUsersService } from '../users/pass-users.service';
import { codePage, consentPage, emailPage, lockoutPage, stepUpPage } from './interaction-pages';

/** What a page handler answers: HTML to show, or a URL to send the browser to. */
export type InteractionOutcome = PageAnswer | { redirect: string };

type Details = Awaited<ReturnType<ProviderService['provider']['interactionDetails']>>;

/** One step of a sign-in: the interaction, the page's language and the application it is for. */
interface Step {
  details: Details;
  c: PageContext;
  application: ApplicationEntity | undefined;
  app: AppView;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const CODE_TTL_SECONDS = 10 * 60;
const LOA1 = 'urn:pass:loa:1';
const LOA2 = 'urn:pass:loa:2';

const originOf = (uri: string | undefined): string | undefined => {
  try {
    return uri ? new URL(uri).origin : undefined;
  } catch {
    return undefined;
  }
};

/** The application as a page names it: its name, its tenant, and the origin of the redirect URI as its link. */
export const appView = (application: ApplicationEntity | undefined, fallback: string, redirectUri?: string): AppView =>
  application
    ? {
        name: application.name,
        tenant: application.tenantId,
        link: originOf(
          redirectUri && application.redirectUris.includes(redirectUri) ? redirectUri : application.redirectUris[0],
        ),
      }
    : { name: fallback };

/**
 * The end-user pages of the authorization flow (oidc-provider interactions): sign-in by e-mail and a
 * one-time code, consent listing the requested claims, and the step-up conditions of the application's
 * assurance policy (session_too_old, email_domain_not_allowed, acr_not_satisfied). Pages are in the
 * request's `ui_locales`, else the browser's language, else Spanish. Sign-in codes are the platform's
 * one-time codes (OneTimeCodeService): per code and per person attempt limits, lockouts, and limits on
 * codes sent per address and per client address. A sign-in that is over or unknown (Back after consent,
 * the link opened without its cookie) is the "expired" page, not an error.
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

  async show(req: IncomingMessage, res: ServerResponse, uid: string, clientId?: string): Promise<InteractionOutcome> {
    const { details, c, app } = await this.step(req, res, uid, clientId);
    if (details.prompt.name === 'login') {
      const tooOld = details.prompt.reasons.includes('max_age') && details.session !== undefined;
      return {
        status: 200,
        html: emailPage(
          c,
          details.uid,
          app,
          text(details.params.login_hint),
          tooOld ? { code: 'session_too_old', text: c.m.notices.sessionTooOld(app.name) } : undefined,
        ),
      };
    }
    return { status: 200, html: consentPage(c, details.uid, app, parseScopes(text(details.params.scope))) };
  }

  async submitEmail(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    email: string,
    clientAddress: string,
    resend: boolean,
  ): Promise<InteractionOutcome> {
    const { details, c, application, app } = await this.step(req, res, uid);
    const normalized = email.trim().toLowerCase();
    if (!isEmail(normalized) || normalized.length > 254)
      return {
        status: 400,
        html: emailPage(c, details.uid, app, email, { code: 'invalid_email', text: c.m.notices.invalidEmail }),
      };
    const domain = normalized.split('@')[1] ?? '';
    if (application?.allowedEmailDomains.length && !application.allowedEmailDomains.includes(domain))
      return {
        status: 400,
        html: emailPage(c, details.uid, app, normalized, {
          code: 'email_domain_not_allowed',
          text: c.m.notices.emailDomainNotAllowed(app.name, application.allowedEmailDomains.join(', ')),
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
        html:
          issued.refused === 'subject'
            ? lockoutPage(c, details.uid, app, issued.retryAfterSeconds)
            : emailPage(c, details.uid, app, normalized, {
                code: 'too_many_codes',
                text: c.m.notices.tooManyCodes(c.m.wait(issued.retryAfterSeconds)),
              }),
      };
    await this.mailer.sendCode(normalized, issued.code, app.name, c.m);
    return {
      status: 200,
      html: codePage(
        c,
        details.uid,
        app,
        normalized,
        resend ? { code: 'code_sent', text: c.m.notices.codeSent } : undefined,
      ),
    };
  }

  async submitCode(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    typed: string,
    email: string | undefined,
  ): Promise<InteractionOutcome> {
    const { details, c, application, app } = await this.step(req, res, uid);
    const code = typed.replace(/\s+/g, '');
    const shown = text(email).trim().toLowerCase();
    const again = (status: number, n: { code: string; text: string }, to = shown): PageAnswer => ({
      status,
      html: to ? codePage(c, details.uid, app, to, n) : emailPage(c, details.uid, app, undefined, n),
    });
    if (!/^\d{6}$/.test(code)) return again(400, { code: 'code_format', text: c.m.notices.codeFormat });
    const check = await this.codes.verify(this.signIn, details.uid, code);
    if (check.outcome === 'locked')
      return { status: 429, html: lockoutPage(c, details.uid, app, check.retryAfterSeconds) };
    if (check.outcome === 'unavailable')
      return again(
        400,
        check.reason === 'attempts_used'
          ? { code: 'code_attempts_used', text: c.m.notices.codeAttemptsUsed }
          : { code: 'code_expired', text: c.m.notices.codeExpired },
      );
    if (check.outcome === 'wrong')
      return again(
        400,
        check.attemptsLeft
          ? { code: 'invalid_code', text: c.m.notices.invalidCode(check.attemptsLeft) }
          : { code: 'code_attempts_used', text: c.m.notices.codeAttemptsUsed },
        check.subject,
      );
    const user = await this.users.findOrCreate(check.subject);
    const acr = user.identity.verified ? LOA2 : LOA1;
    if (application?.requiredAcr === LOA2 && acr !== LOA2)
      return {
        status: 403,
        html: stepUpPage(c, details.uid, app, {
          code: 'acr_not_satisfied',
          text: c.m.stepUp.acrNotSatisfied(app.name),
        }),
      };
    return this.finish(req, res, uid, {
      login: { accountId: user.id, acr, amr: ['otp', 'email'], remember: true },
    });
  }

  async consent(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    decision: 'allow' | 'deny',
  ): Promise<InteractionOutcome> {
    const { details } = await this.step(req, res, uid);
    if (decision === 'deny')
      return this.finishWithError(req, res, uid, 'the user declined to share the requested data');
    if (!details.session) throw new PageAnswerException(await this.expired(uid, req));
    const { Grant } = this.provider.provider;
    const accountId = details.session.accountId;
    const clientId = String(details.params.client_id);
    const grant =
      (details.grantId ? await Grant.find(details.grantId) : undefined) ?? new Grant({ accountId, clientId });
    grant.addOIDCScope(parseScopes(text(details.params.scope)).join(' '));
    const missingClaims = (details.prompt.details.missingOIDCClaims as string[] | undefined) ?? [];
    if (missingClaims.length) grant.addOIDCClaims(missingClaims);
    const grantId = await grant.save();
    return this.finish(req, res, uid, { consent: { grantId } }, true);
  }

  async abort(req: IncomingMessage, res: ServerResponse, uid: string): Promise<InteractionOutcome> {
    await this.step(req, res, uid);
    return this.finishWithError(req, res, uid, 'the user cancelled the sign-in');
  }

  /**
   * The page of a sign-in that is over or unknown: it names the application when the interaction is still
   * stored (opened without its cookie) or its link named it (`client_id` of the interaction URL).
   */
  async expired(uid: string, req: IncomingMessage, clientId?: string): Promise<PageAnswer> {
    const interaction = /^[\w-]{1,64}$/.test(uid) ? await this.provider.provider.Interaction.find(uid) : undefined;
    const params = (interaction?.params ?? {}) as Record<string, unknown>;
    const c = pageContext(params.ui_locales ?? this.queryOf(req).get('ui_locales'), req.headers['accept-language']);
    const id = text(params.client_id) || clientId;
    const application = id ? await this.applications.find(id) : undefined;
    return expiredPage(c, application ? appView(application, '', text(params.redirect_uri)) : undefined);
  }

  /** The interaction of the request's cookie, or the "expired" page when it is over, unknown or another one. */
  private async step(req: IncomingMessage, res: ServerResponse, uid: string, clientId?: string): Promise<Step> {
    let details: Details;
    try {
      details = await this.provider.provider.interactionDetails(req, res);
    } catch (err) {
      if (!(err instanceof this.provider.errors.SessionNotFound)) throw err;
      throw new PageAnswerException(await this.expired(uid, req, clientId));
    }
    if (details.uid !== uid) throw new PageAnswerException(await this.expired(uid, req, clientId));
    const c = pageContext(details.params.ui_locales, req.headers['accept-language']);
    const application = await this.applications.find(String(details.params.client_id));
    return {
      details,
      c,
      application,
      app: appView(application, c.m.theApplication, text(details.params.redirect_uri)),
    };
  }

  private async finish(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    result: InteractionResults,
    merge = false,
  ): Promise<InteractionOutcome> {
    try {
      return {
        redirect: await this.provider.provider.interactionResult(req, res, result, { mergeWithLastSubmission: merge }),
      };
    } catch (err) {
      if (!(err instanceof this.provider.errors.SessionNotFound)) throw err;
      throw new PageAnswerException(await this.expired(uid, req));
    }
  }

  private finishWithError(req: IncomingMessage, res: ServerResponse, uid: string, description: string) {
    return this.finish(req, res, uid, { error: 'access_denied', error_description: description });
  }

  private queryOf(req: IncomingMessage): URLSearchParams {
    return new URL(req.url ?? '/', 'http://pass').searchParams;
  }
}
