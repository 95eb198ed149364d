import type { Request, Response } from 'express';

/** The names and the Secure flag of the pages' cookies, which follow the public URL. */
export interface CookiePolicy {
  session: string;
  csrf: string;
  secure: boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `__Host-` cookies (Secure, Path=/, no Domain) whenever browsers accept them: behind https,
 * and on loopback over plain http, which browsers treat as a secure context. The prefix keeps
 * a sibling subdomain from planting or overwriting the cookie. A plain-http public URL on
 * another host (a trusted network only) gets unprefixed, non-Secure cookies, since a browser
 * would drop Secure ones there and nobody could sign in.
 */
export function cookiePolicy(publicUrl: string): CookiePolicy {
  const url = URL.canParse(publicUrl) ? new URL(publicUrl) : null;
  const secure = url !== null && (url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname));
  return secure ? { session: '__Host-crm_session', csrf: '__Host-crm_csrf', secure } : { session: 'crm_session', csrf: 'crm_csrf', secure };
}

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Cookies are HttpOnly, SameSite, path-wide, never Domain-scoped, and Secure under the policy above. */
export function setCookie(res: Response, name: string, value: string, options: { secure: boolean; sameSite: 'Lax' | 'Strict'; maxAgeSeconds?: number }): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', `SameSite=${options.sameSite}`];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  res.append('Set-Cookie', parts.join('; '));
}

export function clearCookie(res: Response, name: string, secure: boolean): void {
  setCookie(res, name, '', { secure, sameSite: 'Lax', maxAgeSeconds: 0 });
}
