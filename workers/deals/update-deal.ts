import type { updateDeal } from '../../shared/contracts/deals.js';
import { NotFoundError } from '../../shared/errors.js';
import { refuseChangedMeanwhile } from '../runtime/changed-meanwhile.js';
import { requireExpectedVersion } from '../runtime/expected-version.js';
import { nextUpdatedAtSql } from '../runtime/next-updated-at.js';
import { resolveOwner } from '../runtime/resolve-owner.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { activeKeys } from '../schema/custom-field-definitions.js';
import { lockFieldDefinitions } from '../schema/lock-field-definitions.js';
import { mergedCustomFieldsSql } from '../schema/merge-custom-fields-sql.js';
import { customFieldChange, refuseClearingRequired, valuesWritten } from '../schema/validate-custom-field-values.js';
import { resolvePlacement } from './deal-placement.js';
import { requireLinkableContact } from './deal-references.js';
import { toDealResource } from './deal-resource.js';
import { findVisibleDeal } from './get-deal.js';
import { dealUnchanged } from './deal-unchanged.js';
import { loadDealFields } from './load-deal-fields.js';
import { refuseWithdrawnCurrency, requireCurrencyWithAmount } from './money.js';
import { asStoredInstant } from './stored-instant.js';

/** Changes the fields given; moves between stages stay inside the deal's pipeline unless pipeline_id moves it. */
export const updateDealHandler: OperationHandler<typeof updateDeal> = async ({ input, context, db, events }) => {
  const { id, custom_fields: customFields, pipeline_id: pipelineId, stage_id: stageId, stage: stageName, expected_versions: expectedVersions, expected_values: expectedValues, ...given } = input;
  const fields = { ...given, closed_at: await asStoredInstant(db, given.closed_at) };
  const current = await findVisibleDeal(db, context, id, { lock: true });
  requireExpectedVersion('deal', id, current, expectedVersions);
  refuseWithdrawnCurrency(fields.currency, current.currency);
  requireCurrencyWithAmount(
    fields.amount === undefined ? (current.amount === null ? null : Number(current.amount)) : fields.amount,
    fields.currency === undefined ? current.currency : fields.currency,
  );
  // Only a write of custom fields pays for the lock; it comes before the read, which then sees any change that committed first.
  if (customFields !== undefined) await lockFieldDefinitions(db, 'deal', Object.keys(customFields));
  const dealFields = await loadDealFields(db);
  const change = customFields === undefined ? null : customFieldChange(dealFields, 'deal', customFields);
  refuseClearingRequired(change, current.custom_fields);
  // A stage move from a page read before someone moved the deal (to another pipeline too) is that
  // conflict, not the refusal of a stage outside the pipeline the deal is in now.
  refuseChangedMeanwhile('deal', { stage_id: current.stage_id }, expectedValues?.stage_id === undefined ? undefined : { stage_id: expectedValues.stage_id }, { stage_id: stageId });
  const placement =
    pipelineId === undefined && stageId === undefined && stageName === undefined
      ? undefined
      : await resolvePlacement(db, { pipeline_id: pipelineId, stage_id: stageId, stage: stageName }, { pipelineId: current.pipeline_id, stageId: current.stage_id });
  // Only a contact the deal does not have yet is checked: an `owned` member may hold a deal whose contact someone
  // else owns (an administrator linked it), and giving its contact_id back with another change links nothing new.
  if (fields.contact_id && fields.contact_id !== current.contact_id) await requireLinkableContact(db, context, fields.contact_id);
  const ownerId = fields.owner_id === undefined ? undefined : await resolveOwner(db, context, fields.owner_id);
  const owner = ownerRestriction(context);
  const keys = activeKeys(dealFields);
  refuseChangedMeanwhile('deal', toDealResource(current, keys), expectedValues, { ...fields, owner_id: ownerId, stage_id: placement?.stageId, custom_fields: valuesWritten(change) });
  if (dealUnchanged(current, { ...fields, owner_id: ownerId }, placement, change)) return toDealResource(current, keys);

  const row = await db
    .updateTable('deals')
    .set({
      name: fields.name,
      amount: fields.amount,
      currency: fields.currency,
      contact_id: fields.contact_id,
      owner_id: ownerId,
      closed_at: fields.closed_at,
      pipeline_id: placement?.pipelineId,
      stage_id: placement?.stageId,
      updated_at: nextUpdatedAtSql(),
      ...(change ? { custom_fields: mergedCustomFieldsSql(change) } : {}),
    })
    .where('id', '=', id)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new NotFoundError('deal', id, 'id');
  const updated = toDealResource(row, keys);
  // A move between stages is the change integrations watch for: it has its own type.
  const type = row.stage_id === current.stage_id ? 'deal.updated' : 'deal.stage_changed';
  await events.record({ type, object: updated, previous: toDealResource(current, keys) });
  return updated;
};
