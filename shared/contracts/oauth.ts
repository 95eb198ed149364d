import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { Visibility } from '../auth/permissions.js';
import { defineOperation } from '../bus/operation.js';

/**
 * The authorization server's operations, served by the tokens worker. The gateway runs
 * the OAuth endpoints and pages; every record (clients, sessions, requests, grants,
 * codes, refresh tokens, signing keys) lives behind these subjects.
 */
export const McpServerKey = z.enum(['crm', 'studio']);
export type McpServerKey = z.infer<typeof McpServerKey>;

const ClientMetadata = z.record(z.string(), z.unknown());
/** A session token, code or refresh token as it may arrive: anything longer is none of ours. */
export const Secret = z.string().min(1).max(512);
/**
 * What /oauth/revoke takes (RFC 7009): a refresh token or an access token. Access tokens are
 * signed JWTs, several hundred characters longer than a Secret, and must be revocable too.
 */
export const RevocableToken = z.string().min(1).max(4096);
/** A PKCE code challenge (RFC 7636 §4.2: 43 to 128 unreserved characters). */
export const CodeChallenge = z
  .string()
  .min(43)
  .max(128)
  .regex(/^[A-Za-z0-9._~-]+$/, 'code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~"');
/** A PKCE code verifier (RFC 7636 §4.1): the same alphabet and length, so it carries enough entropy. */
export const CodeVerifier = z
  .string({ error: 'code_verifier is required' })
  .regex(/^[A-Za-z0-9._~-]{43,128}$/, 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636 §4.1)');
/** A registered client's generated id, or the https URL of a client metadata document (long enough for real URLs). */
export const ClientId = z.string().max(2048);

/**
 * The consent page shows a client's name as the client chose it. Control and format characters
 * (a right-to-left override, zero-width joiners, line breaks) could make one name look like
 * another there, so a name with any is refused.
 */
export const CLIENT_NAME_CHARACTERS = z
  .string({ error: 'client_name must be a string' })
  .refine((name) => !/[\p{Cc}\p{Cf}]/u.test(name), 'client_name must not contain control or formatting characters (such as a right-to-left override): the consent page shows it');

/** What this authorization server does: the code flow with PKCE, and refresh tokens (its RFC 8414 metadata says so). */
export const SUPPORTED_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
export const SUPPORTED_RESPONSE_TYPES = ['code'] as const;
/** The most redirect URIs a client may list, registered or in its metadata document. */
export const MAX_REDIRECT_URIS = 20;
/** The longest redirect URI a client may list: /oauth/authorize takes none longer. */
export const MAX_REDIRECT_URI_LENGTH = 2000;
/** The longest client_name, registered or in a metadata document: the consent page shows it. */
export const MAX_CLIENT_NAME_LENGTH = 200;
/**
 * The most a client's metadata may take as JSON, registered or as a document: a name and a
 * few redirect URIs take well under 1 KB, and each registration is kept by an unauthenticated request.
 */
export const MAX_CLIENT_METADATA_BYTES = 5 * 1024;

export const registerOAuthClient = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'register-client',
  scoped: false,
  input: z.object({ client: ClientMetadata }),
  output: z.object({ client: ClientMetadata }),
});

/**
 * The signed-in user of the browser has (or had) a grant to this client, in any of their
 * workspaces: only then may /oauth/authorize redirect its errors to the client (RFC 9700
 * §4.11.2). Anyone can register a client and approve it once for themselves.
 */
const UserGranted = z.boolean();

export const getOAuthClient = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'get-client',
  readOnly: true,
  scoped: false,
  /** `session_token`: the browser's session at /oauth/authorize, if any. */
  input: z.object({ client_id: ClientId, session_token: Secret.optional() }),
  output: z.object({ client: ClientMetadata.nullable(), user_granted: UserGranted }),
});

/**
 * A client identified by the URL of its metadata document (draft-ietf-oauth-client-id-metadata-document):
 * the gateway fetched and validated the document; the worker keeps it as the client's row,
 * so requests, grants and codes refer to it like to a registered client.
 */
export const recordMetadataClient = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'record-metadata-client',
  scoped: false,
  input: z.object({ client: ClientMetadata, session_token: Secret.optional() }),
  output: z.object({ client: ClientMetadata, user_granted: UserGranted }),
});

/** The most scope values an authorization request may name, and the longest one: this server's scopes are a few, each a few words. */
export const MAX_REQUESTED_SCOPES = 50;
export const MAX_SCOPE_LENGTH = 100;

export const startAuthorization = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'start-authorization',
  scoped: false,
  input: z.object({
    client_id: z.string(),
    redirect_uri: z.string(),
    code_challenge: CodeChallenge,
    state: z.string().max(1024).nullable(),
    scopes: z.array(z.string().max(MAX_SCOPE_LENGTH)).max(MAX_REQUESTED_SCOPES),
    server: McpServerKey,
    resource: z.string().url(),
  }),
  output: z.object({ request_id: z.string() }),
});

/** The consent page's content: who asks, for which server, and what each workspace allows. */
export const ConsentView = z.object({
  request: z.object({ id: z.string(), server: McpServerKey }),
  /** `metadata_host`: the host serving the client's metadata document, when its id is that document's URL. */
  client: z.object({ id: z.string(), name: z.string().nullable(), redirect_host: z.string(), metadata_host: z.string().nullable() }),
  user: z.object({ id: z.string(), email: z.string() }),
  /** The user still has an invitation's temporary password: no consent until they choose their own. */
  password_change_required: z.boolean(),
  workspaces: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      organization: z.string(),
      read_scopes: z.array(Scope),
      write_scopes: z.array(Scope).describe('Empty unless "Allow changes" is offered in this workspace'),
    }),
  ),
});
export type ConsentView = z.infer<typeof ConsentView>;

export const viewConsent = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'view-consent',
  scoped: false,
  input: z.object({ request_id: z.string().max(100), session_token: Secret }),
  output: ConsentView,
});

export const decideAuthorization = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'decide-authorization',
  scoped: false,
  input: z.discriminatedUnion('decision', [
    z.object({ decision: z.literal('approve'), request_id: z.string().max(100), session_token: Secret, workspace_id: z.string().max(64), allow_changes: z.boolean() }),
    z.object({ decision: z.literal('deny'), request_id: z.string().max(100), session_token: Secret }),
  ]),
  /** Where to send the browser: the client's redirect_uri with a code, or with error=access_denied. */
  output: z.object({ redirect_to: z.string() }),
});

export const OAuthTokens = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
  refresh_token: z.string(),
});

export const codeChallenge = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'get-code-challenge',
  scoped: false,
  input: z.object({ client_id: z.string(), code: Secret }),
  output: z.object({ code_challenge: z.string() }),
});

export const exchangeCode = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'exchange-code',
  scoped: false,
  input: z.object({
    client_id: z.string(),
    code: Secret,
    redirect_uri: z.string().optional(),
    resource: z.string().optional(),
    issuer: z.string().url(),
    /** False for a client whose registered grant_types leave out refresh_token (RFC 7591 §2): it gets none. True when absent (a gateway of an earlier release). */
    issue_refresh_token: z.boolean().default(true),
  }),
  output: OAuthTokens.extend({ refresh_token: z.string().optional() }),
});

export const refreshTokens = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'refresh-tokens',
  scoped: false,
  input: z.object({
    client_id: z.string(),
    refresh_token: Secret,
    scopes: z.array(z.string()).optional(),
    resource: z.string().optional(),
    issuer: z.string().url(),
  }),
  output: OAuthTokens,
});

export const revokeOAuthToken = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'revoke-token',
  destructive: true,
  scoped: false,
  input: z.object({ client_id: z.string(), token: RevocableToken, issuer: z.string().url() }),
  output: z.object({ revoked: z.boolean() }),
});

export const grantStatus = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'get-grant-status',
  readOnly: true,
  scoped: false,
  input: z.object({ grant_id: z.string().max(64) }),
  /** While active: the grant's scopes that the member's permissions still allow, and their visibility now. */
  output: z.discriminatedUnion('active', [
    z.object({ active: z.literal(false) }),
    z.object({ active: z.literal(true), scopes: z.array(Scope), visibility: Visibility }),
  ]),
});

export const PublicJwk = z.record(z.string(), z.unknown());

export const jwks = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'get-key-set',
  readOnly: true,
  scoped: false,
  input: z.object({}),
  output: z.object({ keys: z.array(PublicJwk) }),
});

/** Operators only (crm keys rotate): no gateway route reaches it. */
export const rotateSigningKey = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'rotate-signing-key',
  scoped: false,
  operatorOnly: true,
  input: z.object({}),
  output: z.object({ kid: z.string(), retired: z.array(z.string()) }),
});
