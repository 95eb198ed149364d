import type { archiveCustomField } from '../../shared/contracts/custom-fields.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { changeCustomField } from './update-custom-field.js';

/** Hides the field from records and refuses new values; stored values stay and return if it is restored. */
export const archiveCustomFieldHandler: OperationHandler<typeof archiveCustomField> = async ({ input, db, events }) =>
  changeCustomField(db, events, input.id, { archived: true });
