import { randomUUID } from 'node:crypto';

import { toErrorEnvelope } from '@kyc/platform';
import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { PageAnswerException } from './page-answer.exception';
import { genericErrorPage, pageContext, PASS_PAGE_HEADERS } from './pass-page';

/** An error oidc-provider throws for something the request did (SessionNotFound, InvalidRequest…): status < 500. */
interface ProviderError {
  error: string;
  status: number;
  expose: boolean;
}
const isProviderError = (e: unknown): e is ProviderError =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as ProviderError).error === 'string' &&
  typeof (e as ProviderError).status === 'number' &&
  (e as ProviderError).expose === true;

/**
 * The error handling of the pages people see (sign-in, consent, approval): whatever stops a request is a
 * page in the person's language with a way forward, never the JSON envelope. A page the handler chose
 * (PageAnswerException: an expired sign-in, a bad link) is sent as is; what the request did wrong (a
 * form tampered with, an oidc-provider refusal) is a 4xx page logged as a warning; only a fault of pass
 * is a 500 page, logged as an error with its id.
 */
@Catch()
export class PageErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('pages');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const req = http.getRequest<FastifyRequest>();
    const send = (status: number, body: string) =>
      void reply.status(status).headers(PASS_PAGE_HEADERS).type('text/html; charset=utf-8').send(body);
    if (exception instanceof PageAnswerException) return send(exception.answer.status, exception.answer.html);
    const query = (req.query ?? {}) as Record<string, unknown>;
    const c = pageContext(query.ui_locales, req.headers['accept-language']);
    if (isProviderError(exception) && exception.status < 500) {
      this.logger.warn({ path: req.url.split('?')[0], error: exception.error }, 'page request refused');
      const page = genericErrorPage(c, exception.status, exception.error);
      return send(page.status, page.html);
    }
    const errorId = randomUUID();
    const envelope = toErrorEnvelope(exception, errorId);
    if (envelope.code >= 500) this.logger.error({ err: exception, error_id: errorId }, 'page failed');
    else this.logger.warn({ path: req.url.split('?')[0], error: envelope.error_code }, 'page request refused');
    const page = genericErrorPage(c, envelope.code, envelope.code >= 500 ? errorId : envelope.error_code);
    send(page.status, page.html);
  }
}
