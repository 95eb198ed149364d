import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { Duration, DurationList } from './webhooks/duration.js';

/**
 * One environment variable: its name, how its text parses (default included) and its row
 * of the README's configuration table, which test/unit/config.test.ts compares with this.
 */
interface Setting<S extends z.ZodType = z.ZodType> {
  variable: string;
  schema: S;
  /** The table's "Default" cell. */
  byDefault: string;
  /** The table's "Meaning" cell. */
  meaning: string;
}

/** A variable that may stay unset; `whenUnset` says what happens then. */
function optional<S extends z.ZodType>(variable: string, schema: S, whenUnset: string, meaning: string): Setting<z.ZodOptional<S>> {
  return { variable, schema: schema.optional(), byDefault: whenUnset, meaning };
}

/** A variable with a default value, which the table shows as written. */
function withDefault<S extends z.ZodType>(variable: string, schema: S, value: z.util.NoUndefined<z.output<S>>, meaning: string): Setting<z.ZodDefault<S>> {
  return { variable, schema: schema.default(value), byDefault: `\`${String(value)}\``, meaning };
}

/** A variable whose default is text for the schema to parse (a duration, a list), shown as written. */
function withTextDefault<S extends z.ZodType>(variable: string, schema: S, text: z.util.NoUndefined<z.input<S>>, meaning: string): Setting<z.ZodPrefault<S>> {
  return { variable, schema: schema.prefault(text), byDefault: `\`${String(text)}\``, meaning };
}

/** The same variable, its parsed value reshaped for the code that reads it. */
function mapped<S extends z.ZodType, O>(setting: Setting<S>, map: (value: z.output<S>) => O): Setting<z.ZodPipe<S, z.ZodTransform<Awaited<O>, z.output<S>>>> {
  return { ...setting, schema: setting.schema.transform(map) };
}

/** A `true`/`false` variable, read as a boolean. */
function flag(variable: string, value: 'true' | 'false', meaning: string) {
  return mapped(withDefault(variable, z.enum(['true', 'false'], { error: `${variable} must be true or false` }), value, meaning), (text) => text === 'true');
}

/**
 * Digits only, then the range: `z.coerce.number` read a blank value as 0 (a rate limit
 * silently turned off, a random port) and took `0x10`, `1e3` or `-0` for numbers.
 */
const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number (digits only)')
    .transform(Number)
    .pipe(z.number().min(min).max(max));
const port = () => wholeNumber(0, 65535);
const perMinute = () => wholeNumber(0);

/**
 * An address to listen on: an IP address, or a host name the resolver turns into one. A
 * URL, a port or a stray space passed before and failed only at listen, without naming the
 * variable.
 */
const listenHost = () =>
  z
    .string()
    .refine(
      // Underscores too: container and compose service names (crm_gateway) resolve though DNS names may not hold them.
      (host) => isIP(host) !== 0 || /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*$/.test(host),
      'must be an IP address or a host name (no scheme, port or path)',
    );

/**
 * A size as body-parser reads it (`100kb`, `1mb`, a number of bytes), above zero: it took
 * anything else as the digits it begins with (` 10kb`: 10 bytes) or refused it only when
 * the gateway built its routes, with a TypeError.
 */
const byteSize = () =>
  z.string().regex(/^(?!0+(\.0+)?\s*[a-z]*$)\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, 'must be a size above zero such as 100kb or 1mb (units b, kb, mb, gb)');

/**
 * A Postgres URL: any URL passed before. `localhost:5432/crm` (its "scheme" `localhost:`)
 * failed at connect with "no PostgreSQL user name specified", and a password holding `#`
 * ended the URL there, so the service waited forever for a host named after the password.
 */
const postgresUrl = () =>
  z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL, e.g. postgres://crm:PASSWORD@db.internal:5432/crm' })
    .refine((url) => !url.includes('#'), 'must not hold "#" (a Postgres URL has no fragment): percent-encode it in the password as %23');

/**
 * An http(s) origin that paths are appended to, kept as its origin: lower-case scheme and host,
 * no default port, no trailing slash. Any URL passed before (`javascript:`, `ftp:`, one with a
 * query or a fragment) and made every link, `Location` and the OAuth issuer wrong; one written
 * `https://CRM.example.com` or `…:443` was kept as written, so no OAuth client's resource
 * (which clients normalise) equalled the tool server's and every authorization was refused.
 * A path is refused: console links, redirects and forms, and the OAuth and protected-resource
 * metadata, are served at the root, so a prefix behind a proxy only half worked.
 */
const publicBaseUrl = () =>
  z
    .url({ protocol: /^https?$/i, error: 'must be an http or https URL' })
    .refine((url) => !/[?#]/.test(url), 'must be a base URL, without a query or a fragment')
    // URL.parse: zod runs these checks on a value that failed the first one too.
    .refine((url) => !URL.parse(url)?.username && !URL.parse(url)?.password, 'must not hold a user name or password')
    .refine(
      (url) => /^\/*$/.test(URL.parse(url)?.pathname ?? '/'),
      'must be an origin without a path (https://crm.example.com): the service is served at the root of its host, so serve it on its own host name rather than under a path prefix',
    )
    .transform((url) => new URL(url).origin);

/** What is wrong with a CRM_SECRET, the first thing only. */
function crmSecretProblem(secret: string): string | null {
  if (secret.length < 32) return 'CRM_SECRET must be at least 32 characters';
  // Spaces or a newline at the ends are kept, not refused: a deployment's secret read from a file
  // with its newline has hashed every token with it, and trimming it now would lock them all out.
  if (/change-?me/i.test(secret)) return 'CRM_SECRET is still the example placeholder: set it to a random value, e.g. from `openssl rand -hex 32`';
  // Catches a made-up value (32 spaces, "xxxx…", "changeme" repeated), not a weak random one.
  if (new Set(secret).size < 8) return 'CRM_SECRET must be random (it holds fewer than 8 different characters), e.g. from `openssl rand -hex 32`';
  return null;
}

/** One server as nats.js connects to it: `nats://` or `tls://` (or no scheme), perhaps credentials, a host and a port. */
function isNatsServer(entry: string): boolean {
  const url = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ? entry : `nats://${entry}`);
  return url !== null && /^(nats|tls):$/i.test(url.protocol) && url.hostname !== '' && /^\/?$/.test(url.pathname) && url.search === '' && url.hash === '';
}

/**
 * NATS servers, comma-separated: anything else (a typo, an http:// or a path) failed only
 * when connecting, as "refused this process" blamed on the NATS credentials.
 */
const natsServers = () =>
  z
    .string()
    .refine(
      (value) => value.split(',').every((entry) => isNatsServer(entry.trim())),
      'must be NATS servers, comma-separated, each nats://HOST:PORT or tls://HOST:PORT (credentials allowed: nats://user:password@HOST:PORT)',
    );

function hostListEntries(value: string): string[] {
  return value.split(',').map((entry) => entry.trim()).filter(Boolean);
}

/**
 * The host name one MCP_ALLOWED_HOSTS entry names, as the Host header check compares it (lower
 * case, IPv6 in brackets), written as an operator may: a port, an http(s) scheme, capitals.
 */
function allowedHostName(entry: string): string | null {
  const bare = isIP(entry) === 6 ? `[${entry}]` : entry;
  const url = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(bare) ? bare : `http://${bare}`);
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || !/^\/?$/.test(url.pathname) || url.search || url.hash) return null;
  const { hostname } = url;
  const ip = isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0;
  return ip || /^[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?$/.test(hostname) ? hostname : null;
}

/**
 * Host names, comma-separated: an entry no Host header can equal (an unbracketed IPv6 address
 * before, a wildcard `*.example.com`, a path) was dropped or kept silently, and the tool
 * servers answered that host 403 with nothing saying why.
 */
const allowedHostList = () =>
  z.string().superRefine((value, ctx) => {
    const wrong = hostListEntries(value).filter((entry) => allowedHostName(entry) === null);
    if (wrong.length > 0) {
      ctx.addIssue({ code: 'custom', message: `must be host names or IP addresses, comma-separated, each perhaps with a port (no wildcards or paths): ${wrong.join(', ')} is not` });
    }
  });

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of an express `trust proxy` list: a named range, an address, or a subnet (`10.0.0.0/8`). */
function isTrustedProxy(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const kind = isIP(address);
  if (kind === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) >= 1 && Number(bits) <= (kind === 4 ? 32 : 128));
}

/**
 * A hop count, or the proxies' addresses as express reads them: anything else (`true`,
 * `yes`) made express throw "invalid IP address" only when the gateway started.
 */
const trustedProxies = () =>
  z
    .string()
    .refine(
      (value) => /^\d+$/.test(value) || value.split(',').every((entry) => isTrustedProxy(entry.trim())),
      'must be a number of proxies (e.g. 1) or a comma-separated list of addresses, subnets (10.0.0.0/8), loopback, linklocal or uniquelocal',
    );

/**
 * Every setting the service reads from the environment, declared once: the keys are the
 * fields of `Config` (one level of grouping, as for `rateLimits`), the values say which
 * variable fills each field and how.
 */
const SETTINGS = {
  databaseUrl: optional('DATABASE_URL', postgresUrl(), 'unset: embedded Postgres', 'Postgres (15 or newer) connection URL.'),
  natsUrl: optional('NATS_URL', natsServers(), 'unset: in-process bus', 'NATS server(s), comma-separated. Required by `crm gateway` and `crm worker`.'),
  secret: optional(
    'CRM_SECRET',
    z.string().superRefine((secret, ctx) => {
      const problem = crmSecretProblem(secret);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    'generated into `.data/secret` (embedded only)',
    'At least 32 random characters (`openssl rand -hex 32`); the same for every worker and `crm` command, and never given to gateways. Keys for token hashes, cursor signatures and operator-call signatures are derived from it. Required with `DATABASE_URL`.',
  ),
  dataDir: mapped(withDefault('CRM_DATA_DIR', z.string(), '.data', 'Embedded Postgres data and the generated secret.'), (dir) => path.resolve(dir)),
  host: withDefault('HOST', listenHost(), '127.0.0.1', 'Where the gateway listens.'),
  port: withDefault('PORT', port(), 3000, "The gateway's port (`0` picks a free port)."),
  publicUrl: optional(
    'PUBLIC_URL',
    publicBaseUrl(),
    '`http://HOST:PORT`',
    'The address clients use, an origin without a path (`https://crm.example.com`): links, `Location`, the OAuth issuer and the tool servers\' resource identifiers are made from it.',
  ),
  busNamespace: withDefault(
    'BUS_NAMESPACE',
    z.string().regex(/^[A-Za-z0-9_-]+$/, 'BUS_NAMESPACE may hold letters, digits, _ and - only'),
    'crm',
    'Subject prefix, so several deployments can share one NATS.',
  ),
  busTimeoutMs: withDefault('BUS_TIMEOUT_MS', wholeNumber(100, 60_000), 5000, 'Deadline of a bus request; past it the gateway answers 503.'),
  nodeEnv: optional('NODE_ENV', z.string(), 'unset', '`production` (the container image sets it) turns off the checks meant for development: see `VALIDATE_REPLIES`.'),
  validateReplies: mapped(
    optional(
      'VALIDATE_REPLIES',
      z.enum(['true', 'false'], { error: 'VALIDATE_REPLIES must be true or false' }),
      'unset: `true`, but `false` when `NODE_ENV=production`',
      "Check every worker reply against its operation's output schema, in the worker and again in the gateway: on in development and tests, off in production, which trusts its authenticated workers and skips the cost.",
    ),
    (text) => (text === undefined ? undefined : text === 'true'),
  ),
  workerConcurrency: withDefault('WORKER_CONCURRENCY', wholeNumber(1, 1000), 64, 'Messages one worker process works on at once.'),
  dbPoolMax: withDefault('DB_POOL_MAX', wholeNumber(1, 200), 10, 'Postgres connections per worker or `crm start` process (other `crm` commands open 4, `crm migrate` 3: a pool of 2 and the one holding the migration lock).'),
  dbStatementTimeoutMs: withDefault(
    'DB_STATEMENT_TIMEOUT_MS',
    wholeNumber(0, 3_600_000),
    30_000,
    'Longest one SQL statement of a worker or `crm start` may run, waiting for locks included, before Postgres cancels it (`0`: no limit): a runaway query gives its connection back at this bound instead of holding it indefinitely. A request past `BUS_TIMEOUT_MS` has had its 503 from the gateway already; set this lower to have the worker stop sooner, but above the longest operation you run (an import batch may take up to 30 s). Migrations are not limited.',
  ),
  authCacheTtlMs: withDefault('AUTH_CACHE_TTL_MS', wholeNumber(0, 5000), 3000, 'How long the gateway reuses a positive token check (at most 5000).'),
  authNegativeCacheTtlMs: withDefault(
    'AUTH_NEGATIVE_CACHE_TTL_MS',
    wholeNumber(0, 30_000),
    5000,
    'How long the gateway remembers that a token is unknown, revoked or expired, keyed by its hash (at most 30000; `0` turns it off).',
  ),
  bodyLimit: withDefault('BODY_LIMIT', byteSize(), '100kb', 'Largest accepted request body (413 beyond).'),
  grantCacheTtlMs: withDefault('GRANT_CACHE_TTL_MS', wholeNumber(0, 5000), 3000, 'How long a gateway reuses "this OAuth grant stands" (at most 5000).'),
  oauthRegistrationsPerHour: withDefault('OAUTH_REGISTRATIONS_PER_HOUR', wholeNumber(1), 20, 'Dynamic client registrations per IP and hour.'),
  oauthClientMetadataAllowPrivateNetworks: flag(
    'OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS',
    'false',
    'Development and tests only: let the gateway fetch client metadata documents (an https URL as `client_id`) over http and from loopback, private and link-local addresses, which are otherwise refused (after DNS too, when connecting) so that a client_id cannot reach inside the deployment.',
  ),
  allowedHosts: mapped(
    optional('MCP_ALLOWED_HOSTS', allowedHostList(), 'none', "Extra host names the tool servers answer to, comma-separated (PUBLIC_URL's host and loopback names always)."),
    (hosts) => hostListEntries(hosts ?? '').map((entry) => allowedHostName(entry) ?? entry),
  ),
  trustProxy: optional('TRUST_PROXY', trustedProxies(), 'unset', 'Express `trust proxy` (e.g. `1`) when a load balancer sets `X-Forwarded-For`, so sign-in limits see client IPs.'),
  logLevel: withDefault(
    'LOG_LEVEL',
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'info',
    'pino level; logs are JSON lines with `request_id`, never secrets.',
  ),
  adminPort: optional('ADMIN_PORT', port(), 'unset: off', 'The operator\'s port of every process: `/metrics` (Prometheus), `/healthz`, `/readyz`; `0` picks a free port.'),
  adminHost: withDefault('ADMIN_HOST', listenHost(), '127.0.0.1', 'Where the admin port listens.'),
  rateLimits: {
    tokenPerMinute: withDefault('RATE_LIMIT_TOKEN_PER_MINUTE', perMinute(), 6000, 'Requests per minute per API token (REST and tool servers); `0` turns it off.'),
    grantPerMinute: withDefault('RATE_LIMIT_GRANT_PER_MINUTE', perMinute(), 1200, 'Tool-server requests per minute per OAuth grant; `0` turns it off.'),
    sessionPerMinute: withDefault(
      'RATE_LIMIT_SESSION_PER_MINUTE',
      perMinute(),
      600,
      'Console requests per minute per signed-in user (pages and form posts); `0` turns it off.',
    ),
    signInPerMinute: withDefault('RATE_LIMIT_SIGN_IN_PER_MINUTE', perMinute(), 20, 'Sign-in attempts and console password changes per minute per client IP (see `TRUST_PROXY`); `0` turns it off.'),
    oauthPerMinute: withDefault(
      'RATE_LIMIT_OAUTH_PER_MINUTE',
      perMinute(),
      300,
      'Requests per minute per client IP to each of `/oauth/authorize`, `/oauth/token` and `/oauth/revoke`, counted by each gateway (agents behind one address refresh every 10 minutes); `0` turns it off.',
    ),
    failedAuthPerMinute: withDefault(
      'RATE_LIMIT_FAILED_AUTH_PER_MINUTE',
      perMinute(),
      60,
      'Refused API tokens and unknown console session cookies per minute per client IP; past it, 429 without a lookup until the minute ends; `0` turns it off.',
    ),
    storeFailure: withDefault(
      'RATE_LIMIT_STORE_FAILURE',
      z.enum(['local', 'open', 'closed']),
      'local',
      'When the shared count (NATS KV) is unreachable: `local` counts each gateway alone against the same limits, `open` lets requests through, `closed` refuses them (429).',
    ),
  },
  nats: {
    user: optional('NATS_USER', z.string(), 'unset', 'NATS user name (with `NATS_PASSWORD`), when the server authenticates by password.'),
    password: optional('NATS_PASSWORD', z.string(), 'unset', "That user's password."),
    nkeySeed: optional(
      'NATS_NKEY_SEED',
      z.string().regex(/^SU[A-Z2-7]{56}$/, 'NATS_NKEY_SEED must be a user nkey seed (SU…)'),
      'unset',
      "This process's NATS identity as an nkey seed (`crm nats keys` makes them; the server holds only the public keys).",
    ),
    creds: optional('NATS_CREDS', z.string(), 'unset', 'Path of a NATS `.creds` file (JWT accounts) instead.'),
    tlsCa: optional('NATS_TLS_CA', z.string(), 'unset', 'CA certificate (PEM file) that signed the NATS servers\' certificates; setting it turns TLS on.'),
    tlsCert: optional('NATS_TLS_CERT', z.string(), 'unset', 'Client certificate (PEM file), when the servers verify clients.'),
    tlsKey: optional('NATS_TLS_KEY', z.string(), 'unset', "That certificate's private key (PEM file)."),
  },
  webhooks: {
    allowPrivateNetworks: flag(
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
      'false',
      'Development and tests only: let webhook endpoints use http and loopback, private and link-local addresses, which are otherwise refused (at creation and at every connection) so that webhooks cannot reach inside the deployment.',
    ),
    retrySchedule: withTextDefault(
      'WEBHOOK_RETRY_SCHEDULE',
      DurationList,
      '1m,5m,30m,2h,5h,8h,8h',
      'Waits between the attempts of a webhook delivery after the first fails (each shortened by up to 20% at random, so copies do not retry in step); after the last, the delivery is failed. The default spans about 24 hours.',
    ),
    timeoutMs: withTextDefault(
      'WEBHOOK_TIMEOUT',
      // Node's timers hold at most about 24 days and run a longer one at once: as 0, every attempt would time out at once.
      Duration.refine((ms) => ms > 0 && ms <= 3_600_000, 'WEBHOOK_TIMEOUT must be more than 0 and at most 1h'),
      '10s',
      'How long one webhook delivery attempt may take, connection and response included (at most 1h).',
    ),
    inFlightPerEndpoint: withDefault(
      'WEBHOOK_IN_FLIGHT_PER_ENDPOINT',
      wholeNumber(1, 32),
      8,
      'Webhook attempts one webhooks worker has in flight at once for one endpoint, of its 32: an endpoint that never answers holds at most this many for `WEBHOOK_TIMEOUT` each, and its other deliveries wait in Postgres, not in a slot.',
    ),
    inFlightPerWorkspace: withDefault(
      'WEBHOOK_IN_FLIGHT_PER_WORKSPACE',
      wholeNumber(1, 32),
      16,
      "Webhook attempts one webhooks worker has in flight at once for one workspace, of its 32: one workspace's slow endpoints leave the other slots to other workspaces.",
    ),
    disableAfterMs: withTextDefault(
      'WEBHOOK_DISABLE_AFTER',
      // At 0 an endpoint was disabled at its first failed attempt, before any retry.
      Duration.refine((ms) => ms > 0, 'WEBHOOK_DISABLE_AFTER must be more than 0'),
      '3d',
      'A webhook endpoint whose deliveries fail without a success for this long is disabled (a `webhook_endpoint.disabled` event records it). More than 0; a long duration (`3650d`) all but turns this off.',
    ),
  },
  events: {
    recording: mapped(
      withDefault(
        'EVENTS_RECORDING',
        z.enum(['on', 'off'], { error: 'EVENTS_RECORDING must be on or off' }),
        'on',
        'Only for measuring what the change history costs (`npm run bench` compares both): `off` stores no event for the writes the workers serve (contacts, deals, notes, schema, tokens, members, webhook endpoints, by any path), so the feed, the stream and webhooks miss them; only the agent events of the OAuth flow, those of `crm bootstrap` and an endpoint disabled for failing are still recorded. Never off in production.',
      ),
      (value) => value === 'on',
    ),
    streamMaxAgeMs: withTextDefault(
      'EVENTS_STREAM_MAX_AGE',
      // JetStream reads a max_age of 0 as "keep forever", refuses one under 100ms and one past int64 nanoseconds (about 292 years), the last two only when the stream is set up.
      Duration.refine((ms) => ms >= 1000 && ms <= 3650 * 86_400_000, 'EVENTS_STREAM_MAX_AGE must be at least 1s and at most 3650d'),
      '7d',
      'How long the JetStream event stream (`<BUS_NAMESPACE>-events`) keeps events for its consumers (at least 1s, at most 3650d); the history in Postgres (`GET /v1/events`) is kept regardless. A new stream is created with it; an existing one changes with `crm events setup-stream`.',
    ),
    streamReplicas: withDefault('EVENTS_STREAM_REPLICAS', wholeNumber(1, 5), 1, 'Copies of the event stream in a NATS cluster (3 for a 3-node cluster).'),
  },
  natsKvReplicas: withDefault('NATS_KV_REPLICAS', wholeNumber(1, 5), 1, 'Copies of the rate-limit key-value bucket in a NATS cluster (3 for a 3-node cluster); read by the webhooks workers, which create the bucket.'),
};

type Settings = { [key: string]: Setting | Settings };
type ConfigOf<T> = { [K in keyof T]: T[K] extends Setting<infer S> ? z.output<S> : ConfigOf<T[K]> };

function isSetting(value: Setting | Settings): value is Setting {
  return value.schema instanceof z.ZodType;
}

function flatten(settings: Settings): Setting[] {
  return Object.values(settings).flatMap((s) => (isSetting(s) ? [s] : flatten(s)));
}

/** Every variable, in the order of the table. */
export const CONFIG_VARIABLES: readonly Setting[] = flatten(SETTINGS);

/** The table's shape, filled from the parsed variables. */
function fill(settings: Settings, env: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).map(([key, s]) => [key, isSetting(s) ? env[s.variable] : fill(s, env)]));
}

const EnvSchema = z.object(Object.fromEntries(CONFIG_VARIABLES.map((s) => [s.variable, s.schema])));

/** The environment in, the typed configuration out. */
export const ConfigSchema = EnvSchema.transform((env) => {
  // Each field holds its own schema's output, so the filled object is exactly a ConfigOf.
  const config = fill(SETTINGS, env) as ConfigOf<typeof SETTINGS>;
  // The one default that depends on another variable.
  return { ...config, validateReplies: config.validateReplies ?? config.nodeEnv !== 'production' };
});

export type Config = z.output<typeof ConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, so `DATABASE_URL= crm start` means "embedded".
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
