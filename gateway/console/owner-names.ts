import type { Request } from 'express';
import { MAX_PAGE_SIZE } from '../../shared/contracts/common.js';
import { listMembers, nameMembers, type MemberRecord } from '../../shared/contracts/members.js';
import type { GatewayDeps } from '../deps.js';
import { callWorker } from '../call-worker.js';
import { may } from './console-layout.js';
import type { ConsoleSession } from './console-session.js';

/** Every member, read a page at a time as the list operation gives them. */
async function allMembers(deps: GatewayDeps, req: Request): Promise<MemberRecord[]> {
  const members: MemberRecord[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: MemberRecord[]; next_cursor: string | null } = (await callWorker(deps.bus, req, listMembers, { limit: MAX_PAGE_SIZE, ...(cursor ? { cursor } : {}) })).result;
    members.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return members;
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
  const members = readsOthers ? (await callWorker(deps.bus, req, nameMembers, {})).result.members : session.isAdministrator ? await allMembers(deps, req) : [];
  for (const m of members) emails.set(m.user_id, m.email);
  return (ownerId) => (ownerId === null ? 'No owner' : ownerId === session.user.id ? 'You' : (emails.get(ownerId) ?? ownerId));
}
