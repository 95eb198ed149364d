import type { Request, Router } from 'express';
import type { Html } from '../../pages/html.js';
import { sendPage } from '../../pages/session-routes.js';
import type { ConsoleSection } from '../console-layout.js';
import { sessionOf, type ConsoleSession } from '../console-session.js';
import { pathParam } from '../form-fields.js';
import { confirmPage } from '../pages/confirm-page.js';
import { workspacePath } from '../workspace-url.js';

export interface RevokeRoutes<T extends { id: string }> {
  section: ConsoleSection;
  /** The list, relative to the workspace (e.g. '/tokens'); an item is revoked at `{list}/{id}/revoke`. */
  list: string;
  load: (req: Request, id: string) => Promise<T>;
  /** What the confirmation page says about the item (its times in the session's workspace time zone). */
  confirm: (item: T, session: ConsoleSession) => { title: string; details: Html; fields?: Html; button: string };
  revoke: (req: Request, id: string) => Promise<unknown>;
}

/**
 * Revoking something from a list: GET asks for confirmation, POST revokes and goes back
 * to the list with `?notice=revoked` (so a reload does not post again).
 */
export function revokeRoutes<T extends { id: string }>(router: Router, options: RevokeRoutes<T>): void {
  router.get('/:id/revoke', async (req, res) => {
    const session = sessionOf(req);
    const item = await options.load(req, pathParam(req, 'id'));
    const list = workspacePath(session, options.list);
    sendPage(res, confirmPage({ session, section: options.section, ...options.confirm(item, session), action: `${list}/${item.id}/revoke`, cancel: list }));
  });

  router.post('/:id/revoke', async (req, res) => {
    await options.revoke(req, pathParam(req, 'id'));
    res.redirect(303, `${workspacePath(sessionOf(req), options.list)}?notice=revoked`);
  });
}
