import type { createDeal } from '../../shared/contracts/deals.js';
import { jsonb } from '../../shared/db/sql.js';
import { newId } from '../../shared/ids.js';
import { resolveOwner } from '../runtime/resolve-owner.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { activeKeys } from '../schema/custom-field-definitions.js';
import { lockFieldDefinitions } from '../schema/lock-field-definitions.js';
import { customFieldsForCreate } from '../schema/validate-custom-field-values.js';
import { resolvePlacement } from './deal-placement.js';
import { requireLinkableContact } from './deal-references.js';
import { toDealResource } from './deal-resource.js';
import { loadDealFields } from './load-deal-fields.js';
import { refuseWithdrawnCurrency, requireCurrencyWithAmount } from './money.js';
import { asStoredInstant } from './stored-instant.js';

export const createDealHandler: OperationHandler<typeof createDeal> = async ({ input, context, db, events }) => {
  requireCurrencyWithAmount(input.amount, input.currency);
  refuseWithdrawnCurrency(input.currency, null);
  const closedAt = await asStoredInstant(db, input.closed_at);
  // See lockFieldDefinitions: before the read, and only when custom fields are written.
  if (input.custom_fields !== undefined) await lockFieldDefinitions(db, 'deal', Object.keys(input.custom_fields));
  const fields = await loadDealFields(db);
  const customFields = customFieldsForCreate(fields, 'deal', input.custom_fields ?? {});
  const placement = await resolvePlacement(db, input);
  if (input.contact_id) await requireLinkableContact(db, context, input.contact_id);
  const ownerId = await resolveOwner(db, context, input.owner_id);
  const now = new Date();
  const row = await db
    .insertInto('deals')
    .values({
      id: newId('deal'),
      workspace_id: db.workspaceId,
      name: input.name,
      pipeline_id: placement.pipelineId,
      stage_id: placement.stageId,
      amount: input.amount ?? null,
      currency: input.currency ?? null,
      contact_id: input.contact_id ?? null,
      owner_id: ownerId,
      custom_fields: jsonb(customFields),
      closed_at: closedAt ?? null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const created = toDealResource(row, activeKeys(fields));
  await events.record({ type: 'deal.created', object: created });
  return created;
};
