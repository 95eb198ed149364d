import { defineEntity, p } from '@mikro-orm/core';

/**
 * A client that registered itself with the authorization server (migration 0003). Like the
 * other OAuth tables, it is read and written through typed SQL (see ../sql.ts); this
 * definition gives those queries their types.
 */
export const OAuthClientSchema = defineEntity({
  name: 'OAuthClient',
  tableName: 'oauth_clients',
  properties: {
    id: p.string().primary(),
    clientName: p.string().nullable(),
    redirectUris: p.array(),
    /** The registered metadata, as the SDK's registration handler produced it (never a secret: clients are public). */
    metadata: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
    /** When a user first approved it (migration 0005); until then errors are not redirected to it. */
    firstConsentedAt: p.datetime(3).nullable(),
  },
});
export class OAuthClient extends OAuthClientSchema.class {}
OAuthClientSchema.setClass(OAuthClient);
