import { defineEntity, p } from '@mikro-orm/core';

export const IdempotencyKeySchema = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    workspaceId: p.string().primary(),
    key: p.string().primary(),
    /** The operation and a hash of its input: a key reused for another request is refused. */
    fingerprint: p.string(),
    /** json, not jsonb: a replay gives the first response's keys in their order (migration 0017). */
    response: p.json<unknown>().nullable().columnType('json'),
    createdAt: p.datetime(3),
  },
});

export class IdempotencyKey extends IdempotencyKeySchema.class {}
IdempotencyKeySchema.setClass(IdempotencyKey);
