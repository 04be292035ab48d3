import type { BASE_SCOPES } from '../../scopes/scopes';

/** The scopes a page describes in the person's words: every base scope and validations:write. */
export type DescribedScope = (typeof BASE_SCOPES)[number] | 'validations:write';

/** Why an approval form answer is refused (PassMessages.approval.fieldErrors says it). */
export type FieldErrorCode =
  'once' | 'checkbox' | 'must_check' | 'required' | 'control' | 'number' | 'date' | 'email' | 'option' | 'too_long';

/**
 * Every string of pass's pages (sign-in, code, consent, step-up, approval, and the pages of the states a
 * person can reach: expired sign-in, lockout, decided approval, bad link), one catalog per language.
 */
export interface PassMessages {
  brand: string;
  /** "the application", when its name is not known. */
  theApplication: string;
  /** A wait told to a person: "15 minutos", "2 horas". */
  wait: (seconds: number) => string;
  technicalDetails: string;
  backTo: (app: string) => string;
  /** The e-mail with the sign-in code (the code is in the subject too). */
  mail: { subject: (code: string) => string; text: (app: string, code: string) => string };
  /** The CIBA approval text message: who asks (application and tenant), what the client wrote, the link. */
  approvalSms: (
    requester: { app: string; tenant: string } | undefined,
    said: string | undefined,
    link: string,
  ) => string;
  signIn: {
    title: string;
    heading: (app: string) => string;
    intro: string;
    email: string;
    send: string;
    cancel: string;
  };
  code: {
    title: string;
    heading: string;
    intro: (email: string) => string;
    label: string;
    hint: string;
    verify: string;
    resend: string;
    otherEmail: string;
  };
  notices: {
    sessionTooOld: (app: string) => string;
    emailDomainNotAllowed: (app: string, domains: string) => string;
    invalidEmail: string;
    codeFormat: string;
    tooManyCodes: (wait: string) => string;
    codeSent: string;
    invalidCode: (attemptsLeft: number) => string;
    codeAttemptsUsed: string;
    codeExpired: string;
  };
  lockout: { title: string; heading: string; text: (wait: string) => string; after: string };
  consent: {
    title: string;
    heading: (app: string) => string;
    owner: (app: string, tenant: string) => string;
    intro: (app: string) => string;
    allow: string;
    deny: string;
    note: string;
  };
  stepUp: { title: string; heading: string; acrNotSatisfied: (app: string) => string };
  expired: { title: string; heading: string; text: (app: string) => string; textUnknown: string };
  authorizeError: { title: string; heading: string; text: string };
  genericError: { title: string; heading: string; text: string };
  approval: {
    title: string;
    heading: string;
    requester: (app: string, tenant: string) => string;
    unknownRequester: string;
    theirMessage: string;
    shares: string;
    details: string;
    attachments: string;
    requested: string;
    required: string;
    choose: string;
    yes: string;
    no: string;
    formErrors: string;
    approve: string;
    decline: string;
    approved: { title: string; heading: string; text: (app: string) => string };
    declined: { title: string; heading: string; text: (app: string) => string };
    decided: { title: string; heading: string; approved: string; declined: string; text: string };
    expired: { title: string; heading: string; text: string };
    badLink: { title: string; heading: string; text: string };
    fieldErrors: Record<FieldErrorCode, (label: string, max?: number) => string>;
  };
  /** Every scope shown in words (the others are shown as they are). */
  scopes: Record<DescribedScope, string>;
  documentScope: (country: string, type: string) => string;
}

/** A wait in whole minutes (at least 1) under two hours, else in whole hours: the catalogs' `wait`. */
export const minutesHours = (seconds: number): { minutes: number } | { hours: number } => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes < 120 ? { minutes } : { hours: Math.ceil(minutes / 60) };
};
