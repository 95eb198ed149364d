import type { getEvent } from '../../../shared/contracts/events.js';
import { NotFoundError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { omittedEvent } from '../../../shared/events/event-stream.js';
import { withOmission } from '../../runtime/shrinkable-page.js';
import { toEventResource } from './event-resource.js';
import { visibleEventsSql } from './event-visibility.js';

/** One event; an event about a record the caller may not read is a 404, like the record. */
export const getEventHandler: OperationHandler<typeof getEvent> = async ({ input, context, db }) => {
  const row = await db.selectFrom('events').selectAll().where('id', '=', input.id).where(visibleEventsSql(db, context)).executeTakeFirst();
  if (!row) throw new NotFoundError('event', input.id, 'id');
  // An event too large for one message (stored before the size limit) is given as the stream gives it.
  return withOmission(toEventResource(row), omittedEvent);
};
