import type { Html } from '../pages/html.js';
import { listPager } from './list-pager.js';

/** "Newest" and "Older" under a feed read newest first. */
export function historyPager(
  base: string,
  filters: Record<string, string>,
  nextCursor: string | null,
  onLaterPage: boolean,
  label = 'Older and newer changes',
  /** The id of the feed's heading, when the feed is not the top of its page. */
  fragment?: string,
): Html {
  return listPager({ base, filters, nextCursor, onLaterPage, first: 'Newest', next: 'Older', label, ...(fragment ? { fragment } : {}) });
}
