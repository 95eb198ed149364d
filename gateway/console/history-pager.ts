import { html, type Html } from '../pages/html.js';

/**
 * "Newest" and "Older" under a feed read newest first. The cursor is bound to the filters
 * it was made with, so both links carry the filters along.
 */
export function historyPager(
  base: string,
  filters: Record<string, string>,
  nextCursor: string | null,
  onLaterPage: boolean,
  label = 'Older and newer changes',
  /** The id of the feed's heading, when the feed is not the top of its page. */
  fragment?: string,
): Html {
  const href = (extra: Record<string, string>) => {
    const query = new URLSearchParams({ ...filters, ...extra }).toString();
    return `${query === '' ? base : `${base}?${query}`}${fragment ? `#${fragment}` : ''}`;
  };
  if (!onLaterPage && !nextCursor) return html``;
  return html`<nav class="pager" aria-label="${label}">
    ${onLaterPage ? html`<a href="${href({})}">Newest</a>` : ''}
    ${nextCursor ? html`<a href="${href({ cursor: nextCursor })}" rel="next">Older</a>` : ''}
  </nav>`;
}
