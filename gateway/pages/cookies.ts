import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'crm_session';
export const CSRF_COOKIE = 'crm_csrf';

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

/** Cookies are HttpOnly, SameSite, path-wide, and Secure whenever the public URL is https. */
export function setCookie(res: Response, name: string, value: string, options: { secure: boolean; sameSite: 'Lax' | 'Strict'; maxAgeSeconds?: number }): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', `SameSite=${options.sameSite}`];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  res.append('Set-Cookie', parts.join('; '));
}

export function clearCookie(res: Response, name: string, secure: boolean): void {
  setCookie(res, name, '', { secure, sameSite: 'Lax', maxAgeSeconds: 0 });
}
