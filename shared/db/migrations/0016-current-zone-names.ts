import { Migration } from '@mikro-orm/migrations';
import { CURRENT_NAME_OF_ICU_ZONE } from '../../time/renamed-zones.js';

/**
 * Workspaces saved before the service stored zones under their current IANA names keep the
 * old name ICU gave (Asia/Calcutta for Asia/Kolkata): renamed here, so every workspace shows
 * the name its users expect. Both names denote the same zone, so no day or cursor moves.
 */
export class Migration0016CurrentZoneNames extends Migration {
  override name = '0016-current-zone-names';

  override async up(): Promise<void> {
    const renames = Object.entries(CURRENT_NAME_OF_ICU_ZONE);
    const values = renames.map(([old, current]) => `('${old}', '${current}')`).join(', ');
    this.addSql(`update workspaces w set time_zone = r.current_name from (values ${values}) as r (old_name, current_name) where w.time_zone = r.old_name;`);
  }

  override async down(): Promise<void> {
    // Nothing to undo: the old names were aliases of the same zones.
  }
}
