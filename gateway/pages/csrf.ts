import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { ForbiddenError } from '../../shared/errors.js';
import { readCookie, setCookie, type CookiePolicy } from './cookies.js';

/**
 * The CSRF token of a signed-in browser is derived from its session cookie (HMAC keyed by
 * the session token), so a token from one session is worthless in another and a planted
 * cookie cannot make one match. The session cookie is HttpOnly: a cross-site page can read
 * neither it nor the token. Before sign-in (the sign-in form) there is no session, and a
 * double-submit cookie (random, SameSite=Strict, HttpOnly) stands in.
 */
function sessionBoundToken(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('crm console csrf v1').digest('base64url');
}

export function csrfToken(req: Request, res: Response, policy: CookiePolicy): string {
  const session = readCookie(req, policy.session);
  if (session) return sessionBoundToken(session);
  const existing = readCookie(req, policy.csrf);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  setCookie(res, policy.csrf, token, { secure: policy.secure, sameSite: 'Strict' });
  return token;
}

export function verifyCsrf(req: Request, policy: CookiePolicy): void {
  const session = readCookie(req, policy.session);
  const expected = session ? sessionBoundToken(session) : (readCookie(req, policy.csrf) ?? '');
  const field = typeof req.body?.csrf_token === 'string' ? (req.body.csrf_token as string) : '';
  const a = Buffer.from(expected);
  const b = Buffer.from(field);
  if (a.length === 0 || a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new ForbiddenError('This form has expired or did not come from this site. Go back and try again.');
  }
}
