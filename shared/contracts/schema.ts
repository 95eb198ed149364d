import { z } from 'zod';
import { DESIGN_READ_SCOPES } from '../auth/scopes.js';
import { defineOperation } from '../bus/operation.js';
import { CustomField } from './custom-fields.js';
import { Pipeline } from './pipelines.js';

/**
 * The most a workspace's design (its active custom fields, its pipelines and all their stages)
 * may take, measured as the rows' JSON: describe_schema answers with all of it in one bus
 * message (1 MB), so a design past that could no longer be read.
 */
export const DESIGN_MAX_BYTES = 512_000;

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
  scope: [...DESIGN_READ_SCOPES, 'contacts:read', 'deals:read'],
  input: z.object({}),
  output: SchemaDescription,
});
