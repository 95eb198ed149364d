import { defineEntity, p } from '@mikro-orm/core';

/** One sign-in try, counted to slow password guessing (migration 0003). */
export const SignInAttemptSchema = defineEntity({
  name: 'SignInAttempt',
  tableName: 'sign_in_attempts',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    email: p.string(),
    ip: p.string(),
    succeeded: p.boolean(),
    createdAt: p.datetime(3),
  },
});
export class SignInAttempt extends SignInAttemptSchema.class {}
SignInAttemptSchema.setClass(SignInAttempt);
