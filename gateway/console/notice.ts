import type { Request } from 'express';
import { html, type Html } from '../pages/html.js';

/**
 * The notice that `?notice=` names after a redirect. Only the page's own keys count
 * (Object.hasOwn), so `?notice=constructor` shows nothing rather than a built-in.
 */
export function noticeFrom(req: Request, notices: Readonly<Record<string, string>>): string | undefined {
  const key = req.query.notice;
  return typeof key === 'string' && Object.hasOwn(notices, key) ? notices[key] : undefined;
}

/** A line that says what just happened (a polite live region); nothing when there is no news. */
export function noticeLine(content: string | Html | undefined): Html {
  return content ? html`<p class="notice" role="status">${content}</p>` : html``;
}
