import type { PageAnswer } from './pass-page';

/** A page that ends a request early (an expired sign-in, a bad approval link): PageErrorFilter sends it as is. */
export class PageAnswerException extends Error {
  constructor(readonly answer: PageAnswer) {
    super(`page ${answer.status}`);
  }
}
