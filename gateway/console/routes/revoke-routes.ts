import type { Request, Router } from 'express';
import type { Html } from '../../pages/html.js';
import { sendPage } from '../../pages/session-routes.js';
import type { ConsoleSection } from '../console-layout.js';
import { sessionOf, type ConsoleSession } from '../console-session.js';
import { pathParam } from '../form-fields.js';
import { confirmPage } from '../pages/confirm-page.js';
import { listReturn, withQuery } from '../list-return.js';
import { workspacePath } from '../workspace-url.js';

export interface RevokeRoutes<T extends { id: string }> {
  section: ConsoleSection;
  /** The list, relative to the workspace (e.g. '/tokens'); an item is revoked at `{list}/{id}/revoke`. */
  list: string;
  /** The list's filters in its query (e.g. `revoked`): kept, with its cursor, to return to the page a row was revoked from. */
  filterKeys?: readonly string[];
  load: (req: Request, id: string) => Promise<T>;
  /** What the confirmation page says about the item (its times in the session's workspace time zone). */
  confirm: (item: T, session: ConsoleSession) => { title: string; details: Html; fields?: Html; button: string };
  revoke: (req: Request, id: string) => Promise<unknown>;
}

/**
 * Revoking something from a list: GET asks for confirmation, POST revokes and goes back
 * to the page of the list it was revoked from with `notice=revoked` (so a reload does not post again).
 */
export function revokeRoutes<T extends { id: string }>(router: Router, options: RevokeRoutes<T>): void {
  router.get('/:id/revoke', async (req, res) => {
    const session = sessionOf(req);
    const item = await options.load(req, pathParam(req, 'id'));
    const list = workspacePath(session, options.list);
    const back = listReturn(req, options.filterKeys);
    sendPage(res, confirmPage({ session, section: options.section, ...options.confirm(item, session), action: withQuery(`${list}/${item.id}/revoke`, back), cancel: withQuery(list, back) }));
  });

  router.post('/:id/revoke', async (req, res) => {
    await options.revoke(req, pathParam(req, 'id'));
    res.redirect(303, withQuery(workspacePath(sessionOf(req), options.list), { ...listReturn(req, options.filterKeys), notice: 'revoked' }));
  });
}
