import type { describeSchema } from '../../shared/contracts/schema.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toCustomFieldResource } from './custom-field-resource.js';
import { loadPipelines } from './pipeline-resource.js';

export const describeSchemaHandler: OperationHandler<typeof describeSchema> = async ({ db }) => {
  const fields = await db
    .selectFrom('custom_fields')
    .selectAll()
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const present = fields.map(toCustomFieldResource);
  return {
    custom_fields: { contact: present.filter((f) => f.object_type === 'contact'), deal: present.filter((f) => f.object_type === 'deal') },
    pipelines: await loadPipelines(db),
  };
};
