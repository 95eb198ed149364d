import type { Request } from 'express';
import { nameMembers } from '../../shared/contracts/members.js';
import { CrmError } from '../../shared/errors.js';
import type { GatewayDeps } from '../deps.js';
import { callWorker } from '../call-worker.js';
import { may } from './console-layout.js';
import type { ConsoleSession } from './console-session.js';

/**
 * The members' e-mails; none when the tokens worker refuses (one of the release before, which
 * named members only to those who read records): the page then shows ids, not an error.
 */
async function memberNames(deps: GatewayDeps, req: Request): Promise<{ user_id: string; email: string }[]> {
  try {
    return (await callWorker(deps.bus, req, nameMembers, {})).result.members;
  } catch (error) {
    if (error instanceof CrmError && error.code === 'forbidden') return [];
    throw error;
  }
}

/**
 * How to name the owner of a record: "you", or another member's e-mail, for every member who
 * sees others' records (a bare usr_… id said nothing to one who is not an administrator), and
 * for an administrator. A member who sees only their own records has no one else to name. The
 * id stays for an owner who is no longer a member.
 */
export async function ownerNames(deps: GatewayDeps, req: Request, session: ConsoleSession): Promise<(ownerId: string | null) => string> {
  const emails = new Map<string, string>();
  const readsOthers = session.membership?.visibility === 'all' && (may(session, 'contacts:read') || may(session, 'deals:read'));
  const members = readsOthers || session.isAdministrator ? await memberNames(deps, req) : [];
  for (const m of members) emails.set(m.user_id, m.email);
  return (ownerId) => (ownerId === null ? 'No owner' : ownerId === session.user.id ? 'You' : (emails.get(ownerId) ?? ownerId));
}
