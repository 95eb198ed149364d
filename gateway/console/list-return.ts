import type { Request } from 'express';
import { Cursor } from '../../shared/contracts/common.js';

/**
 * The page of a list a row's action (change, remove, revoke) was taken from: its filters and
 * cursor, carried through the action's pages so that, done or cancelled, it goes back to that
 * page rather than to the first. A cursor that is not one this service gives is dropped.
 */
export function listReturn(req: Request, filterKeys: readonly string[] = []): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const key of filterKeys) {
    const value = req.query[key];
    if (typeof value === 'string' && value !== '' && value.length <= 100) kept[key] = value;
  }
  const cursor = req.query.cursor;
  if (typeof cursor === 'string' && Cursor.safeParse(cursor).success) kept.cursor = cursor;
  return kept;
}

/** A path with a query, or the bare path when there is none. */
export function withQuery(path: string, query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return search === '' ? path : `${path}?${search}`;
}
