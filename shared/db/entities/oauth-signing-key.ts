import { defineEntity, p } from '@mikro-orm/core';

/** A key that signs OAuth access tokens (migration 0003). */
export const OAuthSigningKeySchema = defineEntity({
  name: 'OAuthSigningKey',
  tableName: 'oauth_signing_keys',
  properties: {
    kid: p.string().primary(),
    algorithm: p.string(),
    publicJwk: p.json<Record<string, unknown>>(),
    /** AES-256-GCM under a key derived from CRM_SECRET. */
    privateKeyEncrypted: p.string(),
    createdAt: p.datetime(3),
    retiredAt: p.datetime(3).nullable(),
  },
});
export class OAuthSigningKey extends OAuthSigningKeySchema.class {}
OAuthSigningKeySchema.setClass(OAuthSigningKey);
