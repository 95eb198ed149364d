import { defineEntity, p } from '@mikro-orm/core';
import { OAuthGrant } from './oauth-grant.js';

/** A refresh token, stored as a hash; rotated on each use (migration 0003). */
export const OAuthRefreshTokenSchema = defineEntity({
  name: 'OAuthRefreshToken',
  tableName: 'oauth_refresh_tokens',
  properties: {
    tokenHash: p.string().primary(),
    grantId: () => p.manyToOne(OAuthGrant).mapToPk().fieldName('grant_id'),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
    rotatedAt: p.datetime(3).nullable(),
  },
});
export class OAuthRefreshToken extends OAuthRefreshTokenSchema.class {}
OAuthRefreshTokenSchema.setClass(OAuthRefreshToken);
