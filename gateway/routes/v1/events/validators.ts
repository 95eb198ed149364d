import { z } from 'zod';
import { Cursor, PageLimitQuery } from '../../../../shared/contracts/common.js';
import { EventFilters } from '../../../../shared/contracts/events.js';
import { pathId } from '../../../api/path-id.js';

export const EventIdParams = z.strictObject({ id: pathId('evt_') });

export const ListEventsQuery = z.strictObject({
  limit: PageLimitQuery,
  cursor: Cursor.optional().describe('Taken from links.next'),
  ...EventFilters.shape,
});
