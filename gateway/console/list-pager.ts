import { html, type Html } from '../pages/html.js';

/** Rows a page of the console's administration lists (tokens, endpoints, members, agents) shows. */
export const ADMIN_LIST_PAGE_SIZE = 50;

/** Where a list read in pages stands, and the words of its links. */
export interface ListPagerView {
  /** The page's path; `filters` and the cursor go in its query. */
  base: string;
  /** The list's filters: a cursor is bound to the filters it was made with, so both links carry them. */
  filters?: Record<string, string>;
  nextCursor: string | null | undefined;
  onLaterPage: boolean;
  first?: string;
  next?: string;
  /** The navigation landmark's name. */
  label?: string;
  /** The id of the list's heading, when the list is not the top of its page. */
  fragment?: string;
}

/**
 * Back to the first page from a later one, and on to the next: a navigation landmark only
 * when there is somewhere to go (an empty one is announced all the same).
 */
export function listPager(view: ListPagerView): Html {
  if (!view.onLaterPage && !view.nextCursor) return html``;
  const href = (extra: Record<string, string>) => {
    const query = new URLSearchParams({ ...view.filters, ...extra }).toString();
    return `${query === '' ? view.base : `${view.base}?${query}`}${view.fragment ? `#${view.fragment}` : ''}`;
  };
  return html`<nav class="pager" aria-label="${view.label ?? 'Pages'}">
    ${view.onLaterPage ? html`<a href="${href({})}">${view.first ?? 'First page'}</a>` : ''}
    ${view.nextCursor ? html`<a href="${href({ cursor: view.nextCursor })}" rel="next">${view.next ?? 'Next page'}</a>` : ''}
  </nav>`;
}
