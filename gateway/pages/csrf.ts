import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { ForbiddenError } from '../../shared/errors.js';
import { CSRF_COOKIE, readCookie, setCookie } from './cookies.js';

/**
 * Double-submit CSRF protection for every form: a random token in a SameSite=Strict,
 * HttpOnly cookie and the same token in a hidden field. A cross-site form cannot read
 * the cookie, so it cannot send a matching field.
 */
export function csrfToken(req: Request, res: Response, secure: boolean): string {
  const existing = readCookie(req, CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  setCookie(res, CSRF_COOKIE, token, { secure, sameSite: 'Strict' });
  return token;
}

export function verifyCsrf(req: Request): void {
  const cookie = readCookie(req, CSRF_COOKIE) ?? '';
  const field = typeof req.body?.csrf_token === 'string' ? (req.body.csrf_token as string) : '';
  const a = Buffer.from(cookie);
  const b = Buffer.from(field);
  if (a.length === 0 || a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new ForbiddenError('This form has expired or did not come from this site. Go back and try again.');
  }
}
