import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting the service reads from the environment, in one place.
 * The README's configuration table is written from this schema.
 */
const EnvSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  NATS_URL: z.string().optional(),
  CRM_SECRET: z.string().min(32, 'CRM_SECRET must be at least 32 characters').optional(),
  CRM_DATA_DIR: z.string().default('.data'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.string().url().optional(),
  BUS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'BUS_NAMESPACE may hold letters, digits, _ and - only')
    .default('crm'),
  BUS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(3000),
  BODY_LIMIT: z.string().default('100kb'),
  OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  TRUST_PROXY: z.string().optional(),
  MCP_ALLOWED_HOSTS: z.string().optional(),
  GRANT_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ADMIN_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  ADMIN_HOST: z.string().default('127.0.0.1'),
  RATE_LIMIT_TOKEN_PER_MINUTE: z.coerce.number().int().min(0).default(6000),
  RATE_LIMIT_GRANT_PER_MINUTE: z.coerce.number().int().min(0).default(1200),
  RATE_LIMIT_SIGN_IN_PER_MINUTE: z.coerce.number().int().min(0).default(20),
  NATS_KV_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
});

export type Config = {
  databaseUrl: string | undefined;
  natsUrl: string | undefined;
  secret: string | undefined;
  dataDir: string;
  host: string;
  port: number;
  publicUrl: string | undefined;
  busNamespace: string;
  busTimeoutMs: number;
  workerConcurrency: number;
  dbPoolMax: number;
  authCacheTtlMs: number;
  bodyLimit: string;
  /** Dynamic client registrations allowed per IP and hour. */
  oauthRegistrationsPerHour: number;
  /** Express "trust proxy": set when a load balancer adds X-Forwarded-For (e.g. 1, or loopback). */
  trustProxy: string | undefined;
  /** Extra host names the tool servers answer to (besides PUBLIC_URL's and loopback names). */
  allowedHosts: string[];
  /** How long a gateway reuses the answer "this OAuth grant stands" (at most 5000). */
  grantCacheTtlMs: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Port of the admin server (/metrics, /healthz, /readyz); none when unset, 0 picks a free one. */
  adminPort: number | undefined;
  adminHost: string;
  /** Requests per minute and key, shared by every gateway; 0 turns a limit off. */
  rateLimits: { tokenPerMinute: number; grantPerMinute: number; signInPerMinute: number };
  /** Copies JetStream keeps of the rate-limit bucket: 3 on a 3-node cluster survives a node. */
  natsKvReplicas: number;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, so `DATABASE_URL= crm start` means "embedded".
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    databaseUrl: e.DATABASE_URL,
    natsUrl: e.NATS_URL,
    secret: e.CRM_SECRET,
    dataDir: path.resolve(e.CRM_DATA_DIR),
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    busNamespace: e.BUS_NAMESPACE,
    busTimeoutMs: e.BUS_TIMEOUT_MS,
    workerConcurrency: e.WORKER_CONCURRENCY,
    dbPoolMax: e.DB_POOL_MAX,
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS,
    bodyLimit: e.BODY_LIMIT,
    oauthRegistrationsPerHour: e.OAUTH_REGISTRATIONS_PER_HOUR,
    trustProxy: e.TRUST_PROXY,
    allowedHosts: (e.MCP_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    grantCacheTtlMs: e.GRANT_CACHE_TTL_MS,
    logLevel: e.LOG_LEVEL,
    adminPort: e.ADMIN_PORT,
    adminHost: e.ADMIN_HOST,
    rateLimits: {
      tokenPerMinute: e.RATE_LIMIT_TOKEN_PER_MINUTE,
      grantPerMinute: e.RATE_LIMIT_GRANT_PER_MINUTE,
      signInPerMinute: e.RATE_LIMIT_SIGN_IN_PER_MINUTE,
    },
    natsKvReplicas: e.NATS_KV_REPLICAS,
  };
}
