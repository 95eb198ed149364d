import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../../shared/canonical-json.js';
import { InvalidCursorError } from '../../shared/errors.js';
import { pgTimestamp } from '../../shared/db/sql.js';
import { SHRINK_PAGE, type Shrink } from './shrinkable-page.js';

/**
 * Opaque, signed keyset cursors. A cursor names the last row of a page by
 * (created_at, id), and is bound to one workspace, one list and one set of filters;
 * the HMAC makes any edit, or use elsewhere, a 400.
 */
export interface CursorScope {
  workspaceId: string;
  /** Which list, e.g. `contacts`. */
  list: string;
  /** The filters of the query, canonicalised; a cursor only continues the same query. */
  filters: Record<string, unknown>;
}

export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

const Payload = z.object({ v: z.literal(2), w: z.string(), l: z.string(), f: z.string(), t: z.number().int(), i: z.string() });

/**
 * The filters as a short hash of their canonical JSON: the cursor stays bound to them but
 * short whatever they hold (a stage name resolved to the ids of many pipelines made
 * cursors longer than the Cursor parameter accepts).
 */
function filtersKey(filters: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(filters)).digest('base64url').slice(0, 22);
}

function sign(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64url').slice(0, 22);
}

export function encodeCursor(key: Buffer, scope: CursorScope, position: KeysetPosition): string {
  const payload = { v: 2, w: scope.workspaceId, l: scope.list, f: filtersKey(scope.filters), t: position.createdAt.getTime(), i: position.id };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(key, body)}`;
}

export function decodeCursor(key: Buffer, scope: CursorScope, cursor: string): KeysetPosition {
  const [body, signature, extra] = cursor.split('.');
  if (!body || !signature || extra !== undefined) throw new InvalidCursorError();
  const expected = Buffer.from(sign(key, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new InvalidCursorError();
  let parsed: z.infer<typeof Payload>;
  try {
    parsed = Payload.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
  } catch {
    throw new InvalidCursorError();
  }
  if (parsed.w !== scope.workspaceId) {
    throw new InvalidCursorError('The cursor was issued in another workspace: page with the credential (token) that read the page it came from, or start again without it.');
  }
  if (parsed.l !== scope.list) throw new InvalidCursorError('The cursor belongs to a different list: use a cursor only with the list that gave it.');
  if (parsed.f !== filtersKey(scope.filters)) throw new InvalidCursorError('The cursor was issued for different filters: send it with the same filters and sort as the page that gave it, or start again without it.');
  return { createdAt: new Date(parsed.t), id: parsed.i };
}

/**
 * Fetches one more row than asked to learn whether another page follows. The page can
 * shrink to its first rows ({@link SHRINK_PAGE}) when its reply would not fit on the bus.
 */
export function pageFrom<T extends { created_at: string; id: string }, R>(
  rows: T[],
  limit: number,
  key: Buffer,
  scope: CursorScope,
  present: (row: T) => R,
): { data: R[]; limit: number; has_more: boolean; next_cursor: string | null; [SHRINK_PAGE]: Shrink<R> } {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const cursorAfter = (row: T) => encodeCursor(key, scope, { createdAt: pgTimestamp(row.created_at), id: row.id });
  const last = page[page.length - 1];
  const data = page.map(present);
  return {
    data,
    limit,
    has_more: hasMore,
    next_cursor: hasMore && last ? cursorAfter(last) : null,
    [SHRINK_PAGE]: (count) => ({ data: data.slice(0, count), has_more: true, next_cursor: cursorAfter(page[count - 1] as T) }),
  };
}
