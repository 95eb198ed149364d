import { z } from 'zod';
import type { Endpoint } from './endpoint.js';
import { listEnvelope, nextLink, type Page } from './list-envelope.js';

type ResponseBody = (result: unknown, query: Record<string, unknown>) => unknown;

/**
 * How an endpoint's response is made from its operation's output, told by the shape of
 * that output: a page (data and next_cursor) goes in the list envelope with the link to
 * the next page, a whole list (a data array alone) is `{object: 'list', data}`, and anything
 * else is the response as it is.
 */
export function responseBodyOf(endpoint: Endpoint, publicUrl: () => string): ResponseBody {
  const shape: Record<string, unknown> = endpoint.op.output instanceof z.ZodObject ? endpoint.op.output.shape : {};
  if ('next_cursor' in shape) {
    return (result, query) => {
      const page = result as Page<unknown>;
      return listEnvelope(page, nextLink(publicUrl(), endpoint.path, query, page.next_cursor));
    };
  }
  if (shape.data instanceof z.ZodArray) return (result) => ({ object: 'list', data: (result as { data: unknown[] }).data });
  return (result) => result;
}
