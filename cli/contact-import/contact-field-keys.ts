import type { CallContext } from '../../shared/contracts/call-context.js';
import { MAX_PAGE_SIZE } from '../../shared/contracts/common.js';
import { listCustomFields } from '../../shared/contracts/custom-fields.js';
import type { LocalServices } from '../local-services.js';
import type { ContactFieldKeys } from './import-columns.js';

/** The workspace's contact custom fields, active, archived and required, so the header can be checked before any row is sent. */
export async function contactFieldKeys({ bus, requestId }: LocalServices, context: CallContext): Promise<ContactFieldKeys> {
  const active = new Set<string>();
  const archived = new Set<string>();
  const required = new Set<string>();
  let cursor: string | undefined;
  do {
    const { result } = await bus.call(
      listCustomFields,
      { limit: MAX_PAGE_SIZE, cursor, object_type: 'contact', include_archived: true },
      { context, requestId },
    );
    for (const field of result.data) {
      (field.archived ? archived : active).add(field.key);
      if (field.required && !field.archived) required.add(field.key);
    }
    cursor = result.next_cursor ?? undefined;
  } while (cursor);
  return { active, archived, required };
}
