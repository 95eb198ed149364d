import { defineEntity, p } from '@mikro-orm/core';

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.string().primary(),
    /** Stored lower-cased. */
    email: p.string(),
    name: p.string().nullable(),
    /** scrypt, see workers/tokens/credentials/passwords.ts; never the password itself. */
    passwordHash: p.string().lazy(),
    /** Set for a temporary password from an invitation, until the user chooses their own. */
    passwordChangeRequired: p.boolean().default(false),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class User extends UserSchema.class {}
UserSchema.setClass(User);
