import { z } from 'zod';
import { ErrorPayload, InternalError } from '../errors.js';
import type { Operation } from './operation.js';

/**
 * The wire form of every reply: one line of JSON that says how the call went (its head),
 * a newline, then the result's JSON. A page travels as its rows (the body: the `data`
 * array) and its position (in the head), so a gateway can put the worker's bytes into an
 * HTTP response as they are, without parsing and serialising 100 rows again.
 * JSON.stringify never writes a raw newline, so the first one ends the head.
 */
/** A page's position; other fields of a page's result (e.g. a list's `applied_range`) travel beside it. */
const PageHead = z.looseObject({ limit: z.number().int(), has_more: z.boolean(), next_cursor: z.string().nullable() });
export type PageHead = z.infer<typeof PageHead>;

export const ReplyHead = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), replayed: z.boolean().optional(), page: PageHead.optional() }),
  z.object({ ok: z.literal(false), error: ErrorPayload }),
]);
export type ReplyHead = z.infer<typeof ReplyHead>;

/** A reply taken apart: its head, and the body's bytes still encoded. */
export interface RawReply {
  head: ReplyHead;
  body: Buffer;
}

const NEWLINE = 0x0a;

/** Whether an operation answers with a page (rows, and a cursor to the next ones). */
export function answersWithPage(op: Pick<Operation, 'output'>): boolean {
  return op.output instanceof z.ZodObject && 'next_cursor' in op.output.shape && 'data' in op.output.shape;
}

type Page = PageHead & { data: unknown };

/** A worker's answer in wire form. */
export function encodeReply(op: Pick<Operation, 'output'>, result: unknown, replayed?: boolean): Buffer {
  if (answersWithPage(op)) {
    const { data, ...position } = result as Page;
    return wire({ ok: true, replayed, page: position }, JSON.stringify(data));
  }
  return wire({ ok: true, replayed }, JSON.stringify(result) ?? 'null');
}

export function encodeErrorReply(error: ErrorPayload): Buffer {
  return wire({ ok: false, error }, '');
}

function wire(head: ReplyHead, body: string): Buffer {
  return Buffer.from(`${JSON.stringify(head)}\n${body}`);
}

/** Splits a reply into head and body; undefined when it is not a reply at all. */
export function splitReply(data: Uint8Array): RawReply | undefined {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const end = bytes.indexOf(NEWLINE);
  if (end < 0) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(bytes.toString('utf8', 0, end));
  } catch {
    return undefined;
  }
  const parsed = ReplyHead.safeParse(head);
  return parsed.success ? { head: parsed.data, body: bytes.subarray(end + 1) } : undefined;
}

/** The result a successful reply carries, parsed (a page whole again). */
export function resultOf(reply: RawReply): unknown {
  const body = parsedBody(reply.body);
  return reply.head.ok && reply.head.page ? { data: body, ...reply.head.page } : body;
}

/**
 * JSON.parse's error quotes the text around the fault, and a reply may carry a secret (a
 * new token's plaintext, a session): a body that does not parse is an internal error that
 * says only that.
 */
function parsedBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new InternalError('A worker replied with a body that is not JSON.');
  }
}

/** A reply in one piece, as tests and tools that read raw bus traffic want it. */
export function decodeReply(data: Uint8Array): { ok: true; result: unknown; replayed?: boolean } | { ok: false; error: ErrorPayload } | undefined {
  const reply = splitReply(data);
  if (!reply) return undefined;
  if (!reply.head.ok) return reply.head;
  return { ok: true, result: resultOf(reply), ...(reply.head.replayed ? { replayed: true } : {}) };
}
