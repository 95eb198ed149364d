import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.js';

/** A browser session of the sign-in, consent and console pages (migration 0003). */
export const UserSessionSchema = defineEntity({
  name: 'UserSession',
  tableName: 'user_sessions',
  properties: {
    id: p.string().primary(),
    /** HMAC of the cookie value; the cookie itself is never stored. */
    tokenHash: p.string(),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id'),
    createdAt: p.datetime(3),
    lastSeenAt: p.datetime(3),
    expiresAt: p.datetime(3),
    revokedAt: p.datetime(3).nullable(),
  },
});
export class UserSession extends UserSessionSchema.class {}
UserSessionSchema.setClass(UserSession);
