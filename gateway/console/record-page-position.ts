import type { Request } from 'express';

/**
 * Where a record page's two feeds stand: `?cursor=` pages its history, `?notes_cursor=` its
 * notes. Each is paged on its own, so a link that moves one keeps the other where it is.
 */
export interface RecordPagePosition {
  cursor?: string;
  notes_cursor?: string;
}

export function recordPagePosition(req: Request): RecordPagePosition {
  const position: RecordPagePosition = {};
  for (const key of ['cursor', 'notes_cursor'] as const) {
    const value = req.query[key];
    if (typeof value === 'string' && value !== '') position[key] = value;
  }
  return position;
}

/** The record page at `position`, scrolled to `fragment` (the feed the link pages). */
export function recordPageHref(base: string, position: RecordPagePosition, fragment: string): string {
  const query = new URLSearchParams(Object.entries(position).filter((entry): entry is [string, string] => typeof entry[1] === 'string')).toString();
  return `${base}${query === '' ? '' : `?${query}`}#${fragment}`;
}
