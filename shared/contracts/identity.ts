import { isSupportedCountry } from 'libphonenumber-js/min';
import { z } from 'zod';
import { isCommonPassword } from '../auth/common-passwords.js';
import { GrantedPermissions, Permission, Visibility } from '../auth/permissions.js';
import { defineOperation } from '../bus/operation.js';
import { ID_PREFIXES } from '../ids.js';
import { cleanText } from './common.js';

/** Organization, workspace and user administration, served by the tokens worker. */

const COUNTRY_CODE_RULE = 'must be a two-letter ISO 3166 country code, e.g. US or GB';

/**
 * A country phones are read in: two letters in any case, stored in capitals, and one the
 * phone library knows; otherwise `UK` (for GB) or `ZZ` would be accepted here and every
 * phone written without a country code refused later as "invalid country".
 */
export const CountryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, { message: COUNTRY_CODE_RULE, abort: true })
  .toUpperCase()
  .refine((code) => isSupportedCountry(code), { message: 'is not a country code with phone numbers of its own: give its ISO 3166 code, e.g. GB (not UK) for the United Kingdom' });

export const UserEmail = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'must be an e-mail address' }))
  .transform((s) => s.toLowerCase());

/** One to four characters over and over (`aaaaaaaaaa`, ten spaces, `abcabcabcabc`): long, yet guessed at once. */
const REPEATED_SHORT_SEQUENCE = /^(.{1,4})\1+$/su;

/** A password a user chooses: long enough, not one of the common ones guessed first, nor a short sequence repeated. */
export const Password = z
  .string()
  .min(10, 'must be at least 10 characters')
  .max(200)
  .refine((password) => !isCommonPassword(password), 'is one of the most commonly used passwords; choose another')
  .refine((password) => !REPEATED_SHORT_SEQUENCE.test(password), 'is a few characters repeated; choose another');

const Named = z.object({ id: z.string(), name: z.string() });

export const BootstrapInput = z.strictObject({
  organization: cleanText(100).pipe(z.string().min(1)),
  workspace: cleanText(100)
    .pipe(z.string().min(1))
    // The command line reads a --workspace starting with ws_ as an id: a workspace so named could never be named there.
    .refine((name) => !name.startsWith(`${ID_PREFIXES.workspace}_`), `must not start with ${ID_PREFIXES.workspace}_, which reads as a workspace id where a workspace is given by id or name`),
  email: UserEmail,
  password: Password,
  default_country: CountryCode.nullable().optional(),
});

export const BootstrapResult = z.object({
  organization: Named.extend({ created: z.boolean() }),
  workspace: Named.extend({ created: z.boolean(), default_country: z.string().nullable() }),
  user: z.object({ id: z.string(), email: z.string(), created: z.boolean() }),
});

export const bootstrapWorkspace = defineOperation({
  worker: 'tokens',
  resource: 'workspaces',
  verb: 'bootstrap',
  scoped: false,
  operatorOnly: true,
  input: BootstrapInput,
  output: BootstrapResult,
});

export const ResolvedWorkspace = z.object({
  id: z.string(),
  name: z.string(),
  organization: Named,
  default_country: z.string().nullable(),
});

/** Finds a workspace by id or by name, for the command line. */
export const resolveWorkspace = defineOperation({
  worker: 'tokens',
  resource: 'workspaces',
  verb: 'resolve',
  readOnly: true,
  scoped: false,
  operatorOnly: true,
  input: z.strictObject({ ref: z.string().min(1).max(100) }),
  output: ResolvedWorkspace,
});

export const Member = z.object({
  object: z.literal('member'),
  user_id: z.string(),
  email: z.string(),
  workspace_id: z.string(),
  permissions: z.array(Permission),
  visibility: Visibility,
  created_at: z.string(),
});

/**
 * `crm users add` only: it checks an existing user's password and says whether it matched,
 * which from any other caller would be a password oracle outside sign-in's per-address limit.
 */
export const addUser = defineOperation({
  worker: 'tokens',
  resource: 'members',
  verb: 'add',
  scope: 'tokens:write',
  operatorOnly: true,
  input: z.strictObject({
    email: UserEmail,
    password: Password,
    permissions: GrantedPermissions,
    visibility: Visibility,
  }),
  output: Member.extend({
    user_created: z.boolean(),
    /** False when the user was a member already: their permissions and visibility were updated. */
    member_created: z.boolean(),
  }),
});
