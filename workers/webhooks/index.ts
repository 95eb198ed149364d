import { getEvent, listEvents } from '../../shared/contracts/events.js';
import { handle, type WorkerDefinition } from '../runtime/worker-call.js';
import { getEventHandler } from './events/get-event.js';
import { listEventsHandler } from './events/list-events.js';

/** The change history: reading the feed, and (with the relay) publishing it and delivering it to webhook endpoints. */
export const webhooksWorker: WorkerDefinition = {
  name: 'webhooks',
  handlers: [handle(listEvents, listEventsHandler), handle(getEvent, getEventHandler)],
};
