import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';
import { CustomField } from './custom-fields.js';
import { Pipeline } from './pipelines.js';

/** The workspace's design in one answer: active custom fields per object, and the pipelines. */
export const SchemaDescription = z.object({
  custom_fields: z.object({ contact: z.array(CustomField), deal: z.array(CustomField) }),
  pipelines: z.array(Pipeline),
});

export const describeSchema = defineOperation({
  worker: 'schema',
  resource: 'schema',
  verb: 'describe',
  readOnly: true,
  // Anyone who reads the data may read its shape.
  scope: ['schema:read', 'studio:read', 'contacts:read', 'deals:read'],
  input: z.object({}),
  output: SchemaDescription,
});
