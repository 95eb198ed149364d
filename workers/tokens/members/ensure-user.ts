import { User } from '../../../shared/db/entities/index.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { ConflictError } from '../../../shared/errors.js';
import { newId } from '../../../shared/ids.js';
import { hashPassword, verifyPassword } from '../credentials/passwords.js';

/**
 * Finds the user with this e-mail or creates one. An existing user's password is
 * never changed here; a different password is refused rather than ignored.
 */
export async function ensureUser(em: EntityManager, email: string, password: string): Promise<{ user: User; created: boolean }> {
  const existing = await em.findOne(User, { email }, { populate: ['passwordHash'] });
  if (existing) {
    if (!(await verifyPassword(password, existing.passwordHash))) {
      throw new ConflictError(`A user with e-mail ${email} already exists and the password given is not theirs.`, 'password');
    }
    return { user: existing, created: false };
  }
  const now = new Date();
  const user = em.create(User, {
    id: newId('user'),
    email,
    name: null,
    passwordHash: await hashPassword(password),
    createdAt: now,
    updatedAt: now,
  });
  return { user, created: true };
}
