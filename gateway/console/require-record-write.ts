import type { Request } from 'express';
import type { NotFoundError } from '../../shared/errors.js';
import { ForbiddenError } from '../../shared/errors.js';
import { may } from './console-layout.js';
import { sessionOf } from './console-session.js';

/**
 * A page or form that writes contacts or deals, as the REST rules allow it: a member who may
 * not read them is told nothing is there (`hidden`), one who may only read them gets a 403
 * saying so (the worker checks again).
 */
export function requireRecordWrite(req: Request, records: 'contacts' | 'deals', action: 'add' | 'change', hidden: () => NotFoundError): void {
  const session = sessionOf(req);
  if (!may(session, `${records}:read`)) throw hidden();
  if (!may(session, `${records}:write`)) throw new ForbiddenError(`Your permissions in this workspace let you read ${records}, not ${action} them.`);
}
