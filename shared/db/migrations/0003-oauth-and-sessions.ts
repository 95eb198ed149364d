import { Migration } from '@mikro-orm/migrations';

/**
 * The authorization server's state: registered clients, browser sessions, pending
 * authorization requests, grants, one-time codes, rotating refresh tokens, signing keys
 * (private halves encrypted), and sign-in attempts for rate limiting. Secrets are stored
 * only as keyed hashes.
 */
export class Migration0003OauthAndSessions extends Migration {
  override name = '0003-oauth-and-sessions';

  override async up(): Promise<void> {
    this.addSql(`
      create table oauth_clients (
        id text primary key,
        client_name text,
        redirect_uris text[] not null,
        metadata jsonb not null,
        created_at timestamptz(3) not null
      );

      create table user_sessions (
        id text primary key,
        token_hash text not null,
        user_id text not null references users (id) on delete cascade,
        created_at timestamptz(3) not null,
        last_seen_at timestamptz(3) not null,
        expires_at timestamptz(3) not null,
        revoked_at timestamptz(3),
        constraint user_sessions_token_hash_key unique (token_hash)
      );
      create index user_sessions_user_idx on user_sessions (user_id);

      create table oauth_authorization_requests (
        id text primary key,
        client_id text not null references oauth_clients (id) on delete cascade,
        redirect_uri text not null,
        code_challenge text not null,
        state text,
        requested_scopes text[] not null,
        server text not null check (server in ('crm', 'studio')),
        resource text not null,
        created_at timestamptz(3) not null,
        expires_at timestamptz(3) not null,
        completed_at timestamptz(3)
      );

      create table oauth_grants (
        id text primary key,
        workspace_id text not null,
        user_id text not null,
        client_id text not null references oauth_clients (id) on delete cascade,
        server text not null check (server in ('crm', 'studio')),
        scopes text[] not null,
        allows_changes boolean not null,
        created_at timestamptz(3) not null,
        last_used_at timestamptz(3),
        revoked_at timestamptz(3),
        revoked_reason text,
        constraint oauth_grants_member_fkey foreign key (workspace_id, user_id)
          references memberships (workspace_id, user_id) on delete cascade
      );
      create index oauth_grants_workspace_idx on oauth_grants (workspace_id, created_at, id);
      create index oauth_grants_user_server_idx on oauth_grants (user_id, workspace_id, server);

      create table oauth_codes (
        code_hash text primary key,
        grant_id text not null references oauth_grants (id) on delete cascade,
        client_id text not null,
        redirect_uri text not null,
        code_challenge text not null,
        resource text not null,
        created_at timestamptz(3) not null,
        expires_at timestamptz(3) not null,
        used_at timestamptz(3)
      );

      create table oauth_refresh_tokens (
        token_hash text primary key,
        grant_id text not null references oauth_grants (id) on delete cascade,
        created_at timestamptz(3) not null,
        expires_at timestamptz(3) not null,
        rotated_at timestamptz(3)
      );
      create index oauth_refresh_tokens_grant_idx on oauth_refresh_tokens (grant_id);

      create table oauth_signing_keys (
        kid text primary key,
        algorithm text not null,
        public_jwk jsonb not null,
        private_key_encrypted text not null,
        created_at timestamptz(3) not null,
        retired_at timestamptz(3)
      );

      create table sign_in_attempts (
        id bigserial primary key,
        email text not null,
        ip text not null,
        succeeded boolean not null,
        created_at timestamptz(3) not null
      );
      create index sign_in_attempts_email_idx on sign_in_attempts (email, created_at);
      create index sign_in_attempts_ip_idx on sign_in_attempts (ip, created_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table if exists sign_in_attempts, oauth_signing_keys, oauth_refresh_tokens, oauth_codes, oauth_grants,
        oauth_authorization_requests, user_sessions, oauth_clients cascade;
    `);
  }
}
