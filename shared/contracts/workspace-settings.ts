import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';
import { canonicalTimeZone } from '../time/zoned-day.js';
import { Empty } from './common.js';
import { CountryCode } from './identity.js';

/**
 * The workspace's own settings, read by any credential of the workspace and changed by
 * those who design it (schema:write): the default country phones are read in, and the time
 * zone that days and relative ranges in filters are read in.
 */

const TIME_ZONE_EXAMPLE = 'must be an IANA time zone name, e.g. Europe/Paris, America/Los_Angeles or UTC';

/** An IANA time zone name, stored in its canonical spelling (`europe/paris` → `Europe/Paris`). */
export const TimeZone = z
  .string()
  .trim()
  .max(64, TIME_ZONE_EXAMPLE)
  .transform((name, ctx) => {
    const canonical = canonicalTimeZone(name);
    if (canonical === null) {
      ctx.addIssue({ code: 'custom', message: `"${name}" is not a time zone this service knows: ${TIME_ZONE_EXAMPLE}` });
      return z.NEVER;
    }
    return canonical;
  })
  .describe('IANA time zone name, e.g. Europe/Paris');

export const WorkspaceSettings = z
  .object({
    object: z.literal('workspace'),
    id: z.string().describe('ws_…'),
    name: z.string(),
    default_country: z.string().nullable().describe('ISO 3166 alpha-2: phones written without a country code are read in it; null: they are refused'),
    time_zone: z.string().describe('IANA name (default UTC): days (YYYY-MM-DD) and relative ranges (created_within) in filters are read in it'),
  })
  .meta({ id: 'Workspace' });
export type WorkspaceSettings = z.infer<typeof WorkspaceSettings>;

export const UpdateWorkspaceSettingsInput = z
  .strictObject({
    default_country: CountryCode.nullable().optional().describe('Two-letter ISO 3166 code, e.g. US; null: phones must carry their country code'),
    time_zone: TimeZone.optional(),
  })
  .meta({ id: 'UpdateWorkspace' });

export const getWorkspaceSettings = defineOperation({
  worker: 'schema',
  resource: 'workspace',
  verb: 'get',
  readOnly: true,
  input: Empty,
  output: WorkspaceSettings,
});

export const updateWorkspaceSettings = defineOperation({
  worker: 'schema',
  resource: 'workspace',
  verb: 'update',
  destructive: true,
  scope: 'schema:write',
  input: UpdateWorkspaceSettingsInput,
  output: WorkspaceSettings,
});
