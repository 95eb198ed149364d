import { Migration } from '@mikro-orm/migrations';
import { canonicalEmail } from '../../contracts/email-address.js';

/** Rows read and rewritten at a time, so that a large workspace's table is never held in memory. */
const BATCH = 1_000;

/**
 * Contacts written before e-mail domains were stored in their Unicode form keep the domain as
 * it was typed: punycode (info@xn--mller-kva.de), or letters IDNA maps to others (full-width
 * ｃｏｍ). The email filter finds the punycode ones by both forms, but not the others, and the
 * console showed them as typed. Each is rewritten here to the form a write stores today. Only
 * rows whose address has a non-ASCII character or an `xn--` label can change, so only those are read.
 * Like every migration it commits with the others pending (shared/db/migrate.ts), so the rows it
 * rewrites stay locked until then: few, as such addresses are, and a write to one of them waits.
 */
export class Migration0018CanonicalEmails extends Migration {
  override name = '0018-canonical-emails';

  override async up(): Promise<void> {
    let after = '';
    for (;;) {
      const rows = (await this.execute(
        `select id, email from contacts where id > ? and (email ~ '[^\\x01-\\x7f]' or email like '%xn--%') order by id limit ${BATCH}`,
        [after],
      )) as { id: string; email: string }[];
      if (rows.length === 0) return;
      const changed = rows.map((row) => ({ id: row.id, old: row.email, email: canonicalEmail(row.email) })).filter((row) => row.email !== row.old);
      if (changed.length > 0) {
        // Not updated_at: the address is the one the contact had, written the way it is written today.
        // Only while it is still the address read: the release still serving may have changed it since.
        // As JSON: the migration's parameters spread an array into a list.
        await this.execute(
          `update contacts c set email = v.email from jsonb_to_recordset(?::jsonb) as v (id text, old text, email text) where c.id = v.id and c.email = v.old`,
          [JSON.stringify(changed)],
        );
      }
      after = rows[rows.length - 1]?.id ?? after;
    }
  }

  override async down(): Promise<void> {
    // Nothing to undo: both forms name the same mailbox, and the filter finds either.
  }
}
