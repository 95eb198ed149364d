import express, { Router, type Response } from 'express';
import { SESSION_LIFETIME, signIn, signOut } from '../../shared/contracts/sessions.js';
import { CrmError } from '../../shared/errors.js';
import type { GatewayDeps } from '../deps.js';
import { HTTP_STATUS } from '../errors/http-status.js';
import { CONSENT_SCRIPT } from './consent-page.js';
import { clearCookie, cookiePolicy, readCookie, setCookie } from './cookies.js';
import { csrfToken, verifyCsrf } from './csrf.js';
import { PAGE_SECURITY_HEADERS } from './layout.js';
import { messagePage } from './message-page.js';
import { safeNext } from './safe-next.js';
import { signInPage } from './sign-in-page.js';
import { clientAddressOf, tooManyAttempts } from './failed-attempts.js';
import { staticAsset } from './static-asset.js';
import { STYLESHEET } from './stylesheet.js';
import type { Html } from './html.js';

export function sendPage(res: Response, page: Html, status = 200): void {
  res.status(status).set(PAGE_SECURITY_HEADERS).type('html').send(page.value);
}

/** The browser keeps the cookie no longer than the session can live; the tokens worker enforces both limits. */
export function setSessionCookie(res: Response, publicUrl: string, sessionToken: string): void {
  const cookies = cookiePolicy(publicUrl);
  setCookie(res, cookies.session, sessionToken, { secure: cookies.secure, sameSite: 'Lax', maxAgeSeconds: SESSION_LIFETIME.absoluteDays * 86_400 });
}

/** The sign-in page, coming back to `next` (a path on this site) once signed in. */
export function signInUrl(next: string): string {
  return `/sign-in?next=${encodeURIComponent(next)}`;
}

/** Sign-in and sign-out pages, shared by the OAuth flow and the console, and their assets. */
export function sessionRoutes(deps: GatewayDeps): Router {
  const router = Router();
  const cookies = () => cookiePolicy(deps.publicUrl());
  const form = express.urlencoded({ extended: false, limit: '10kb' });

  router.get('/assets/crm.css', staticAsset('text/css', STYLESHEET));
  router.get('/assets/consent.js', staticAsset('application/javascript', CONSENT_SCRIPT));

  router.get('/sign-in', (req, res) => {
    const next = safeNext(req.query.next);
    const purpose = next.startsWith('/oauth/') ? 'to connect an agent to Workspace CRM' : undefined;
    sendPage(res, signInPage({ csrf: csrfToken(req, res, cookies()), next, purpose }));
  });

  router.post('/sign-in', form, async (req, res) => {
    const next = safeNext(req.body?.next);
    const email = typeof req.body?.email === 'string' ? req.body.email.slice(0, 254) : '';
    const again = (error: string, status: number, errorField?: string) =>
      sendPage(res, signInPage({ csrf: csrfToken(req, res, cookies()), next, email, error, ...(errorField ? { errorField } : {}) }), status);
    try {
      verifyCsrf(req, cookies());
      const password = typeof req.body?.password === 'string' ? req.body.password.slice(0, 200) : '';
      const ip = clientAddressOf(req);
      const { result } = await deps.bus.call(signIn, { email, password, ip }, { context: null, requestId: req.requestId });
      // Rotate: whatever session this browser had ends, and a new one begins.
      const previous = readCookie(req, cookies().session);
      if (previous) await deps.bus.call(signOut, { session_token: previous }, { context: null, requestId: req.requestId }).catch(() => undefined);
      setSessionCookie(res, deps.publicUrl(), result.session_token);
      res.redirect(303, next);
    } catch (error) {
      if (!(error instanceof CrmError)) throw error;
      // Each error keeps its own status: a wrong password is a 401, an internal failure a 500, not a 401.
      again(error.code === 'rate_limited' ? tooManyAttempts(res, error) : error.message, HTTP_STATUS[error.code], error.details.param);
    }
  });

  router.post('/sign-out', form, async (req, res) => {
    verifyCsrf(req, cookies());
    const token = readCookie(req, cookies().session);
    if (token) await deps.bus.call(signOut, { session_token: token }, { context: null, requestId: req.requestId });
    clearCookie(res, cookies().session, cookies().secure);
    sendPage(res, messagePage('Signed out', 'You have signed out of Workspace CRM.', { href: '/sign-in', text: 'Sign in again' }));
  });
  return router;
}
