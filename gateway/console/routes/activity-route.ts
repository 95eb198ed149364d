import { Router } from 'express';
import { EVENT_OBJECTS, listEvents, readsEventsOf, type EventObjectType } from '../../../shared/contracts/events.js';
import { validationErrorFrom, type CrmError } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { EVENT_OBJECT_LABELS } from '../event-record.js';
import { sendPage } from '../../pages/session-routes.js';
import { ListEventsQuery } from '../../routes/v1/events/validators.js';
import { sessionOf } from '../console-session.js';
import { filledQuery } from '../form-fields.js';
import { activityPage } from '../pages/activity-page.js';
import { recordValueNames } from '../record-value-names.js';
import { refusalMessage, refusedField } from '../form-refusal.js';

const FILTER_KEYS = ['object', 'object_id', 'actor_kind', 'actor_id'] as const;
/** The filters as the page labels them, for a refused one (`type` is the kind of record). */
const LABELS = { type: 'Kind of record', object_id: 'Record id', actor_kind: 'Changed by', actor_id: 'Actor id' };
const OBJECT_TYPES = Object.keys(EVENT_OBJECTS) as EventObjectType[];

/** The page's control a refusal is about: the API's `type` is the Kind of record list, `object`. */
function filterOf(error: Pick<CrmError, 'details'>): string | undefined {
  const field = refusedField(error, LABELS);
  return field === 'type' ? 'object' : field;
}

function isObjectType(value: string): value is EventObjectType {
  return (OBJECT_TYPES as string[]).includes(value);
}

/**
 * The Activity page reads with GET /v1/events' query schema and operation, in the member's
 * own context: the worker shows only changes to records the member may read.
 */
export function activityRoute(deps: GatewayDeps): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const session = sessionOf(req);
    const query = filledQuery(req.query);
    const typed = Object.fromEntries(FILTER_KEYS.filter((k) => query[k] !== undefined).map((k) => [k, query[k] as string]));
    const cursor = query.cursor;
    const names = await recordValueNames(deps, req, session);
    const objectKinds = OBJECT_TYPES.filter((kind) => readsEventsOf(session.scopes, kind));
    const base = { session, typed, objectKinds, events: [], nextCursor: null, onLaterPage: cursor !== undefined, names };

    if (typed.object !== undefined && !isObjectType(typed.object)) {
      return sendPage(res, activityPage({ ...base, error: 'Kind of record: choose one from the list.', errorField: 'object' }), 400);
    }
    if (typed.object !== undefined && !objectKinds.includes(typed.object)) {
      const error = `Kind of record: your permissions in this workspace do not let you read changes of this kind (${EVENT_OBJECT_LABELS[typed.object]}).`;
      return sendPage(res, activityPage({ ...base, error, errorField: 'object' }), 403);
    }
    // A kind of record is every event type of it: the type prefix "contact." and so on.
    const parsed = ListEventsQuery.safeParse({
      type: typed.object ? `${typed.object}.` : undefined,
      object_id: typed.object_id,
      actor_kind: typed.actor_kind,
      actor_id: typed.actor_id,
      ...(cursor ? { cursor } : {}),
    });
    if (!parsed.success) {
      const refusal = validationErrorFrom(parsed.error);
      return sendPage(res, activityPage({ ...base, error: refusalMessage(refusal, LABELS), errorField: filterOf(refusal) }), 400);
    }
    try {
      const { result } = await callWorker(deps.bus, req, listEvents, parsed.data);
      sendPage(res, activityPage({ ...base, events: result.data, nextCursor: result.next_cursor }));
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'invalid_cursor'])) {
        return sendPage(res, activityPage({ ...base, error: refusalMessage(error, LABELS), errorField: filterOf(error) }), HTTP_STATUS[error.code]);
      }
      throw error;
    }
  });
  return router;
}
