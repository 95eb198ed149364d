import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { grantableScopes } from '../../shared/auth/permissions.js';
import type { Scope } from '../../shared/auth/scopes.js';
import { sessionMemberships, type SessionMembership } from '../../shared/contracts/sessions.js';
import { CrmError, NotFoundError } from '../../shared/errors.js';
import { CredentialCache } from '../auth/credential-cache.js';
import { RECENTLY_VALID_MS, type FailedAuthLimit } from '../auth/failed-auth-limit.js';
import type { GatewayDeps } from '../deps.js';
import { cookiePolicy, readCookie } from '../pages/cookies.js';
import { csrfToken } from '../pages/csrf.js';
import { signInUrl } from '../pages/session-routes.js';
import { workspaceUrl } from './workspace-url.js';
import { pageOfForm } from './form-page.js';

/** Who is using the console, and in which workspace: resolved afresh on every request. */
export interface ConsoleSession {
  user: { id: string; email: string };
  sessionToken: string;
  memberships: SessionMembership[];
  /** The workspace of the URL; null on pages that belong to the user, not a workspace. */
  membership: SessionMembership | null;
  /** What the membership's permissions allow (none without one): computed once, read by every page and call. */
  scopes: Scope[];
  isAdministrator: boolean;
  /** The workspace's time zone, that every time on its pages is shown in (UTC on pages of no workspace). */
  timeZone: string;
  /** Signed in with an invitation's temporary password: only the account page is open. */
  passwordChangeRequired: boolean;
  csrf: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by {@link consoleSession} on every /console request. */
      consoleSession?: ConsoleSession;
    }
  }
}

/** Where the console starts for this user: their first workspace. */
export function consoleHome(session: ConsoleSession): string {
  const first = session.memberships[0];
  return first ? workspaceUrl(first.workspace_id) : '/console/account';
}

/** What a membership allows in its workspace (nothing without one): the scopes, and whether it administers it. */
export function membershipAccess(membership: SessionMembership | null): Pick<ConsoleSession, 'membership' | 'scopes' | 'isAdministrator' | 'timeZone'> {
  return {
    timeZone: membership?.time_zone ?? 'UTC',
    membership,
    scopes: membership ? grantableScopes(membership.permissions) : [],
    isAdministrator: membership?.permissions.includes('configuration') ?? false,
  };
}

/** The session of a console page as the request handler sees it (the middleware guarantees it). */
export function sessionOf(req: Request): ConsoleSession {
  if (!req.consoleSession) throw new Error('console route mounted without the console session middleware');
  return req.consoleSession;
}

/**
 * Resolves the session cookie into the user and their memberships, and, under
 * /console/w/{workspace}, the membership whose permissions every page and every bus
 * call of the request are held to. The principal is the user, with exactly the scopes
 * their permissions allow, so workers enforce the same rules as for any other caller.
 * Unknown session cookies count against the client address like refused API tokens:
 * past the limit, a 429 without a lookup.
 */
export function consoleSession(deps: GatewayDeps, failedAuth: FailedAuthLimit | null): RequestHandler {
  // Sessions found valid lately (by SHA-256): a member behind an address blocked for unknown
  // cookies (a shared office) keeps working. Only the refusal before the lookup is skipped.
  const recent = new CredentialCache<{ tokenId?: undefined }>(RECENTLY_VALID_MS);
  return async (req: Request, res: Response, next: NextFunction) => {
    // A form posted after the session ended (its page left open too long) leads back to that form's page, not the console's first page.
    const backHere = req.method === 'GET' ? req.originalUrl : pageOfForm(req.originalUrl);
    const cookies = cookiePolicy(deps.publicUrl());
    const token = readCookie(req, cookies.session);
    if (!token) return res.redirect(303, signInUrl(backHere));
    const ip = req.ip ?? 'unknown';
    const key = failedAuth ? CredentialCache.keyOf(token) : '';
    if (failedAuth && !recent.get(key)) failedAuth.check(ip);
    let view;
    try {
      view = (await deps.bus.call(sessionMemberships, { session_token: token }, { context: null, requestId: req.requestId })).result;
    } catch (error) {
      if (!(error instanceof CrmError && error.code === 'unauthenticated')) throw error;
      // Signed out or expired since it was valid: from now on it is refused at the block like any unknown cookie.
      recent.delete(key);
      await failedAuth?.record(ip);
      return res.redirect(303, signInUrl(backHere));
    }
    if (failedAuth) recent.set(key, {});
    // Mounted once for all of /console: the workspace is the first segment after /w/. Routes
    // match regardless of case, so /W/ must name the workspace too, or its pages would run without one.
    const workspaceId = /^\/w\/([A-Za-z0-9_-]{1,64})(?:\/|$)/i.exec(req.path)?.[1] ?? (/^\/w\//i.test(req.path) ? '' : undefined);
    const membership = workspaceId === undefined ? null : (view.memberships.find((m) => m.workspace_id === workspaceId) ?? null);
    const access = membershipAccess(membership);
    const { scopes } = access;
    req.consoleSession = {
      user: view.user,
      sessionToken: token,
      memberships: view.memberships,
      ...access,
      passwordChangeRequired: view.password_change_required,
      csrf: csrfToken(req, res, cookies),
    };
    // An invited user chooses their own password before anything else.
    if (view.password_change_required && !/^\/account(\/|$)/.test(req.path)) return res.redirect(303, '/console/account');
    // Not a member: the same answer as for a workspace that does not exist.
    if (workspaceId !== undefined && !membership) throw new NotFoundError('workspace', workspaceId);
    if (membership) {
      req.credential = {
        kind: 'session',
        workspaceId: membership.workspace_id,
        scopes,
        context: {
          workspace_id: membership.workspace_id,
          principal: { type: 'user', id: view.user.id, scopes },
          visibility: membership.visibility,
        },
      };
    }
    next();
  };
}
