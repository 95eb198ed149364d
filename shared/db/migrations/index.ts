import { Migration0001InitialSchema } from './0001-initial-schema.js';
import { Migration0002FiltersAndStageOrder } from './0002-filters-and-stage-order.js';
import { Migration0003OauthAndSessions } from './0003-oauth-and-sessions.js';
import { Migration0004TemporaryPasswords } from './0004-temporary-passwords.js';
import { Migration0005TokenLineageAndOauth } from './0005-token-lineage-and-oauth.js';
import { Migration0006Events } from './0006-events.js';
import { Migration0007Webhooks } from './0007-webhooks.js';
import { Migration0008Notes } from './0008-notes.js';
import { Migration0009ContactSearch } from './0009-contact-search.js';
import { Migration0010WorkspaceTimeZone } from './0010-workspace-time-zone.js';
import { Migration0011SearchTextFunction } from './0011-search-text-function.js';
import { Migration0012WorkspaceSettingsVersion } from './0012-workspace-settings-version.js';
import { Migration0013WebhookSecretOverlap } from './0013-webhook-secret-overlap.js';
import { Migration0014WebhookDeliveryLease } from './0014-webhook-delivery-lease.js';
import { Migration0015CustomFieldsSize } from './0015-custom-fields-size.js';
import { Migration0016CurrentZoneNames } from './0016-current-zone-names.js';
import { Migration0017IdempotencyResponseAsWritten } from './0017-idempotency-response-as-written.js';
import { Migration0018CanonicalEmails } from './0018-canonical-emails.js';
import { Migration0019NfcNames } from './0019-nfc-names.js';
import { Migration0020SingleSpacedNames } from './0020-single-spaced-names.js';
import { Migration0021NamesFoldedUnique } from './0021-names-folded-unique.js';

/** Every migration, in order. Listed explicitly so the compiled service needs no file discovery. */
export const MIGRATIONS = [
  Migration0001InitialSchema,
  Migration0002FiltersAndStageOrder,
  Migration0003OauthAndSessions,
  Migration0004TemporaryPasswords,
  Migration0005TokenLineageAndOauth,
  Migration0006Events,
  Migration0007Webhooks,
  Migration0008Notes,
  Migration0009ContactSearch,
  Migration0010WorkspaceTimeZone,
  Migration0011SearchTextFunction,
  Migration0012WorkspaceSettingsVersion,
  Migration0013WebhookSecretOverlap,
  Migration0014WebhookDeliveryLease,
  Migration0015CustomFieldsSize,
  Migration0016CurrentZoneNames,
  Migration0017IdempotencyResponseAsWritten,
  Migration0018CanonicalEmails,
  Migration0019NfcNames,
  Migration0020SingleSpacedNames,
  Migration0021NamesFoldedUnique,
];
