import { z } from 'zod';

/** The response header that carries a record's version (RFC 9110 §8.8.3). */
export const ETAG_HEADER = 'ETag';
/** The request header that makes a write apply only to the version it names (RFC 9110 §13.1.1). */
export const IF_MATCH_HEADER = 'If-Match';

/**
 * A contact's or deal's entity tag: its updated_at, which every write of the record moves
 * forward by at least a millisecond (workers/runtime/next-updated-at.ts), so two versions
 * never share a tag. Strong: If-Match compares tags strongly.
 */
export function entityTagOf(record: { updated_at: string }): string {
  return `"${record.updated_at}"`;
}

/** The versions (updated_at values) an update may apply to, as If-Match named them: another one current is a 412. */
export const MAX_IF_MATCH_TAGS = 32;
/** Longer than any version given out (an ISO 8601 instant), so that no valid tag is cut. */
export const MAX_VERSION_LENGTH = 64;
export const ExpectedVersions = z
  .array(z.string().max(MAX_VERSION_LENGTH))
  .max(MAX_IF_MATCH_TAGS)
  .optional()
  .describe('Apply the change only if the record is at one of these versions (its updated_at); otherwise precondition_failed, and nothing changes');

// One entity-tag of a list (RFC 9110 §8.8.3: [W/] DQUOTE *etagc DQUOTE), and the comma or end after it.
const LIST_TAG = /[ \t]*(W\/)?"([\x21\x23-\x7E\x80-\xFF]*)"[ \t]*(?:,|$)/y;

/**
 * If-Match read: "*" (any record that exists), the versions its strong tags name (a weak
 * tag never matches: the comparison is strong), or null when it is neither.
 */
export function parseIfMatch(header: string): '*' | string[] | null {
  if (header.trim() === '*') return '*';
  const versions: string[] = [];
  LIST_TAG.lastIndex = 0;
  while (LIST_TAG.lastIndex < header.length) {
    const at = LIST_TAG.lastIndex;
    const match = LIST_TAG.exec(header);
    if (!match) return null;
    if (match[1] === undefined) versions.push(match[2] as string);
    if (LIST_TAG.lastIndex === at) return null;
  }
  return header.trim() === '' ? null : versions;
}
