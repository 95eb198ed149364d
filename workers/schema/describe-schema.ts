import type { describeSchema } from '../../shared/contracts/schema.js';
import { sqlOf } from '../../shared/db/sql.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toCustomFieldResource } from './custom-field-resource.js';
import { loadPipelines } from './pipeline-resource.js';

export const describeSchemaHandler: OperationHandler<typeof describeSchema> = async ({ context, em }) => {
  const fields = await sqlOf(em)
    .selectFrom('custom_fields')
    .selectAll()
    .where('workspace_id', '=', context.workspace_id)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const present = fields.map(toCustomFieldResource);
  return {
    custom_fields: { contact: present.filter((f) => f.object_type === 'contact'), deal: present.filter((f) => f.object_type === 'deal') },
    pipelines: await loadPipelines(em, context.workspace_id),
  };
};
