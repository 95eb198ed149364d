import { defineEntity, p } from '@mikro-orm/core';
import { OAuthGrant } from './oauth-grant.js';

/** A one-time authorization code, stored as a hash (migration 0003). */
export const OAuthCodeSchema = defineEntity({
  name: 'OAuthCode',
  tableName: 'oauth_codes',
  properties: {
    codeHash: p.string().primary(),
    grantId: () => p.manyToOne(OAuthGrant).mapToPk().fieldName('grant_id'),
    clientId: p.string(),
    redirectUri: p.string(),
    codeChallenge: p.string(),
    resource: p.string(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
    usedAt: p.datetime(3).nullable(),
  },
});
export class OAuthCode extends OAuthCodeSchema.class {}
OAuthCodeSchema.setClass(OAuthCode);
