import { z } from 'zod';
import type { BusClient } from '../../shared/bus/bus-client.js';
import { answersWithPage, type RawReply } from '../../shared/bus/reply.js';
import { InternalError } from '../../shared/errors.js';
import type { Endpoint } from './endpoint.js';
import { nextLink } from './list-envelope.js';

/** `params`: the path's parameters as validated (a nested list's link names its parent). */
type ResponseBody = (reply: RawReply, query: Record<string, unknown>, params: Record<string, unknown>) => Buffer;

/** The request's own path from the endpoint's template: `/v1/webhook-endpoints/{id}/deliveries` with its id. */
function pathWith(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

/** The list envelope around a page's rows: `data` first, as the worker encoded it. */
const LIST_START = Buffer.from('{"object":"list","data":');
/** A whole list's envelope: its first field, before the worker's `"data":[…]}`. */
const LIST_OBJECT = Buffer.from('{"object":"list",');
const OPEN_BRACE = 0x7b;
const ENVELOPE_FIELDS = new Set(['object', 'data', 'meta', 'links']);

/**
 * How an endpoint's response is made from its operation's reply, told by the shape of
 * that operation's output. A page's rows go into the list envelope as the worker's bytes,
 * with its meta and the link to the next page; a whole list (a data array alone) is
 * `{object: 'list', data}`; anything else is the worker's JSON as it came.
 */
export function responseBodyOf(endpoint: Endpoint, publicUrl: () => string, bus: BusClient): ResponseBody {
  const shape: Record<string, unknown> = endpoint.op.output instanceof z.ZodObject ? endpoint.op.output.shape : {};
  if (answersWithPage(endpoint.op)) {
    return (reply, query, params) => {
      const page = reply.head.ok ? reply.head.page : undefined;
      // Rows without their position would read as a whole list to a client, which would stop paging.
      if (!page) throw new InternalError(`The reply to ${endpoint.op.name} carries no page position.`);
      const { limit, has_more, next_cursor, ...extra } = page;
      const next = nextLink(publicUrl(), pathWith(endpoint.path, params), query, next_cursor);
      // Whatever else the page carries (a list's applied_range) follows the links, as the worker sent it;
      // never a second copy of the envelope's own fields.
      const extraFields = Object.entries(extra)
        .filter(([key]) => !ENVELOPE_FIELDS.has(key))
        .map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`)
        .join('');
      const end = `,"meta":${JSON.stringify({ limit, has_more })},"links":${JSON.stringify({ next })}${extraFields}}`;
      return Buffer.concat([LIST_START, reply.body, Buffer.from(end)]);
    };
  }
  if (shape.data instanceof z.ZodArray && Object.keys(shape).length === 1) {
    // The worker wrote `{"data":[…]}`: the envelope's first field goes in front, the rows stay as they came.
    return (reply) => (reply.head.ok && reply.body[0] === OPEN_BRACE ? Buffer.concat([LIST_OBJECT, reply.body.subarray(1)]) : reply.body);
  }
  if (shape.data instanceof z.ZodArray) {
    return (reply) => Buffer.from(JSON.stringify({ object: 'list', data: (bus.resultOf(endpoint.op, reply) as { data: unknown[] }).data }));
  }
  return (reply) => reply.body;
}
