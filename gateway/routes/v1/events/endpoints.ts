import { Event, getEvent, listEvents } from '../../../../shared/contracts/events.js';
import { defineEndpoint } from '../../../api/endpoint.js';
import { listOf } from '../../../api/list-envelope.js';
import { EventIdParams, ListEventsQuery } from './validators.js';

const tag = 'Events';

export const listEventsEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/events',
  operationId: 'listEvents',
  summary: 'List events',
  description:
    'The change history, newest first: one event for every successful write, with who made it (actor) and the old values of what changed (data.previous_attributes). Only events about records the token may read are listed; a type of a kind the token reads none of is a 403 naming the scope. Follow links.next to read further back; filters travel in links.next.',
  tag,
  op: listEvents,
  query: ListEventsQuery,
  response: listOf(Event, 'EventList', { applied_range: listEvents.output.shape.applied_range }),
  status: 200,
  errors: ['invalid_cursor'],
});

export const getEventEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/events/{id}',
  operationId: 'getEvent',
  summary: 'Retrieve an event',
  description: 'An event about a record the token may not read is a 404, like the record.',
  tag,
  op: getEvent,
  params: EventIdParams,
  status: 200,
  errors: ['not_found'],
});

export const eventEndpoints = [listEventsEndpoint, getEventEndpoint];
