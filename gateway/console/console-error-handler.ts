import type { ErrorRequestHandler } from 'express';
import { CrmError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { HTTP_STATUS } from '../errors/http-status.js';
import { html } from '../pages/html.js';
import { clientRequestError } from '../pages/client-request-error.js';
import { pageErrorHandler } from '../pages/page-error-handler.js';
import { sendPage } from '../pages/session-routes.js';
import { consoleLayout, NAV, type ConsoleSection } from './console-layout.js';
import { workspacePath } from './workspace-url.js';

const TITLES: Partial<Record<number, string>> = { 403: 'Not allowed', 404: 'Not found', 429: 'Too many requests' };

/** The section a console path is in (/w/{id}/contacts/… is Contacts), so the refusal is shown there; null for none. */
function sectionOf(path: string): ConsoleSection | null {
  if (/^\/account(\/|$)/i.test(path)) return 'account';
  const match = /^\/w\/[^/]+(\/[^/]+)?/i.exec(path);
  if (!match) return null;
  return NAV.find((item) => item.path === (match[1] ?? '').toLowerCase())?.section ?? null;
}

/**
 * Errors inside the console keep the console around them (header, sections, a way
 * back); anything before the session is known falls back to the plain error page.
 */
export function consoleErrorHandler(log: Logger): ErrorRequestHandler {
  const plain = pageErrorHandler(log);
  return (error: unknown, req, res, next) => {
    const session = req.consoleSession;
    // A form body-parser refused (too large, too many fields) is the sender's mistake, answered like a CrmError's 4xx.
    const refused = error instanceof CrmError ? { status: HTTP_STATUS[error.code], message: error.message, type: undefined } : clientRequestError(error);
    if (res.headersSent || !session || !refused || refused.status >= 500) return plain(error, req, res, next);
    const { status, message } = refused;
    if (!(error instanceof CrmError)) log.info({ request_id: req.requestId, status, type: refused.type }, 'page request refused');
    const back = session.membership ? workspacePath(session) : '/console';
    const page = consoleLayout({
      session,
      section: sectionOf(req.path),
      title: TITLES[status] ?? 'That did not work',
      body: html`<p role="alert">${message}</p><p class="muted">Request ${req.requestId}.</p><p><a href="${back}">Back to the console</a></p>`,
    });
    sendPage(res, page, status);
  };
}
