import type { Request } from 'express';
import { listMembers } from '../../shared/contracts/members.js';
import type { GatewayDeps } from '../deps.js';
import { callWorker } from '../call-worker.js';
import type { ConsoleSession } from './console-session.js';

/**
 * How to name the owner of a record: "you", or for an administrator (who may list
 * members) their e-mail; otherwise the member id.
 */
export async function ownerNames(deps: GatewayDeps, req: Request, session: ConsoleSession): Promise<(ownerId: string | null) => string> {
  const emails = new Map<string, string>();
  if (session.isAdministrator) {
    for (const m of (await callWorker(deps.bus, req, listMembers, {})).result.members) emails.set(m.user_id, m.email);
  }
  return (ownerId) => (ownerId === null ? 'No owner' : ownerId === session.user.id ? 'You' : (emails.get(ownerId) ?? ownerId));
}
