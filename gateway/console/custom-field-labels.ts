import type { Request } from 'express';
import type { z } from 'zod';
import type { CustomFieldObjectType } from '../../shared/contracts/custom-fields.js';
import type { GatewayDeps } from '../deps.js';
import { workspaceSchema } from './workspace-schema.js';

/** What a record page calls a custom field: its label, "the name shown for the field". */
export type FieldLabel = (key: string) => string;

/** The labels of a kind of record's active custom fields; a key without one (its field archived or gone) shows as itself. */
export async function customFieldLabels(deps: GatewayDeps, req: Request, objectType: z.infer<typeof CustomFieldObjectType>): Promise<FieldLabel> {
  const schema = await workspaceSchema(deps, req);
  const labels = new Map(schema.custom_fields[objectType].map((field) => [field.key, field.label]));
  return (key) => labels.get(key) ?? key;
}
