import { crmErrorIn } from '../pages/form-error.js';

/** Said above the first page when the address named a page that no longer works. */
export const PAGE_GONE_NOTICE = 'That page’s address no longer works (it was made for another list, filter or person); here is the first page.';

/**
 * A page of an administration list, or its first page when the cursor is refused: a bookmark of
 * page 2 made under another filter or before a change of permissions would otherwise be a bare
 * error page with no way on. `lost` says the cursor was dropped, for the notice.
 */
export async function pageOrFirst<T>(load: (cursor: string | undefined) => Promise<T>, cursor: string | undefined): Promise<{ page: T; lost: boolean }> {
  try {
    return { page: await load(cursor), lost: false };
  } catch (error) {
    if (cursor !== undefined && crmErrorIn(error, ['invalid_cursor'])) return { page: await load(undefined), lost: true };
    throw error;
  }
}
