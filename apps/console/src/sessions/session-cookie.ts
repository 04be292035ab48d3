import type { FastifyReply, FastifyRequest } from 'fastify';

import { ConsoleConfig } from '../config/console.config';

/** The cookie's name: with the __Host- prefix (Secure, Path=/, no Domain) wherever cookies are Secure. */
export const cookieName = (config: ConsoleConfig) =>
  config.secureCookies ? '__Host-console_session' : 'console_session';

/** The session token of the request's Cookie header, if any. */
export function readSessionCookie(req: FastifyRequest, config: ConsoleConfig): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const name = cookieName(config);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** Sets the session cookie: HttpOnly, SameSite=Strict, Secure outside the loopback, for the session's absolute life. */
export function setSessionCookie(reply: FastifyReply, config: ConsoleConfig, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  const attrs = [`${cookieName(config)}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAge}`];
  if (config.secureCookies) attrs.push('Secure');
  void reply.header('set-cookie', attrs.join('; '));
}

export function clearSessionCookie(reply: FastifyReply, config: ConsoleConfig): void {
  const attrs = [`${cookieName(config)}=`, 'Path=/', 'HttpOnly', 'SameSite=Strict', 'Max-Age=0'];
  if (config.secureCookies) attrs.push('Secure');
  void reply.header('set-cookie', attrs.join('; '));
}
