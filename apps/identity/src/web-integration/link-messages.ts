import type { LinkLanguage } from './dto/access-link.dto';

const TEXT: Record<LinkLanguage, { subject: string; body: (link: string) => string }> = {
  es: {
    subject: 'Verifica tu identidad',
    body: (link) => `Hola. Para continuar, verifica tu identidad en este enlace: ${link}`,
  },
  en: {
    subject: 'Verify your identity',
    body: (link) => `Hello. To continue, verify your identity at this link: ${link}`,
  },
  pt: {
    subject: 'Verifique sua identidade',
    body: (link) => `Olá. Para continuar, verifique sua identidade neste link: ${link}`,
  },
};

/** The e-mail subject of an access link in the language asked. */
export const linkSubject = (lang: LinkLanguage) => TEXT[lang].subject;

/** The e-mail / SMS text of an access link in the language asked. */
export const linkText = (lang: LinkLanguage, link: string) => TEXT[lang].body(link);

/** The end user's page of a web key (served by identity: GET /web?token=&lang=). */
export const processPageUrl = (publicUrl: string, token: string, lang: LinkLanguage) =>
  `${publicUrl.replace(/\/$/, '')}/web?${new URLSearchParams({ token, lang }).toString()}`;
