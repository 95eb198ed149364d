import type { Selectable } from 'kysely';
import type { Deal } from '../../shared/contracts/deals.js';
import { isoTimestamp, isoTimestampOrNull, type CrmDatabase } from '../../shared/db/sql.js';
import { presentCustomFields } from '../schema/validate-custom-field-values.js';

/**
 * The columns a deal's resource is made of: what reads select instead of `*` (no
 * `workspace_id`: every read is of one workspace already, and a page of 100 would carry it
 * 100 times from Postgres for nothing).
 */
export const DEAL_COLUMNS = [
  'id',
  'name',
  'pipeline_id',
  'stage_id',
  'amount',
  'currency',
  'contact_id',
  'owner_id',
  'custom_fields',
  'closed_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Selectable<CrmDatabase['deals']>)[];

export type DealRow = Pick<Selectable<CrmDatabase['deals']>, (typeof DEAL_COLUMNS)[number]>;

/** The API shape of a deal; `fieldKeys` are the workspace's active deal custom fields. */
export function toDealResource(d: DealRow, fieldKeys: string[]): Deal {
  return {
    object: 'deal',
    id: d.id,
    name: d.name,
    pipeline_id: d.pipeline_id,
    stage_id: d.stage_id,
    amount: d.amount === null ? null : Number(d.amount),
    currency: d.currency,
    contact_id: d.contact_id,
    owner_id: d.owner_id,
    custom_fields: presentCustomFields(d.custom_fields, fieldKeys),
    closed_at: isoTimestampOrNull(d.closed_at),
    created_at: isoTimestamp(d.created_at),
    updated_at: isoTimestamp(d.updated_at),
  };
}
