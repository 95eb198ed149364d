import type { Request } from 'express';
import { listEvents } from '../../shared/contracts/events.js';
import { callWorker } from '../call-worker.js';
import type { GatewayDeps } from '../deps.js';
import { recordPagePosition } from './record-page-position.js';

const HISTORY_PAGE = 25;

/** One page of a record's history, newest first; `?cursor=` reads further back. */
export async function recordEvents(deps: GatewayDeps, req: Request, objectId: string) {
  const { cursor } = recordPagePosition(req);
  const { result } = await callWorker(deps.bus, req, listEvents, { limit: HISTORY_PAGE, object_id: objectId, ...(cursor ? { cursor } : {}) });
  return { events: result.data, nextCursor: result.next_cursor, onLaterPage: cursor !== undefined };
}
