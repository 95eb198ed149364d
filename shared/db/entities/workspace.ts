import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';

export const WorkspaceSchema = defineEntity({
  name: 'Workspace',
  tableName: 'workspaces',
  properties: {
    id: p.string().primary(),
    organizationId: () => p.manyToOne(Organization).mapToPk().fieldName('organization_id'),
    name: p.string(),
    /** ISO 3166 alpha-2; phones without a country code are read in this country. */
    defaultCountry: p.string().nullable(),
    /** IANA name; days and relative ranges in filters are read in it. */
    timeZone: p.string().default('UTC'),
    /** Raised by Postgres whenever the settings above or the custom field definitions change (migration 0012). */
    settingsVersion: p.integer().default(0),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class Workspace extends WorkspaceSchema.class {}
WorkspaceSchema.setClass(Workspace);
