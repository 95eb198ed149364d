import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import type { TestDatabase } from '../helpers/database.js';

/**
 * Shared pieces of the property-based resilience suite: bounded HTTP, a cheap database
 * fingerprint, checks for leaked internals, the MCP client, and fast-check settings that
 * can be replayed (FC_SEED, FC_PATH) or scaled (FC_RUNS_FACTOR) from the environment.
 */

/** A request that takes longer than this is a hang, and a failure. */
export const REQUEST_TIMEOUT_MS = 5_000;

export interface RawRequest {
  method: string;
  /** Path and query exactly as sent (percent-encoding is the caller's). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export class HangError extends Error {
  override name = 'HangError';
}

/** One HTTP request with a deadline; no contract checks, no retries. */
export async function send(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const started = Date.now();
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${baseUrl}${req.path}`, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    text = await res.text();
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new HangError(`${req.method} ${req.path.slice(0, 200)}: no answer within ${REQUEST_TIMEOUT_MS} ms (${Date.now() - started} ms)`);
    }
    throw error;
  }
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON.
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** What a response must never show: stack frames, source paths, driver or runtime error names. */
const LEAK_PATTERNS: RegExp[] = [
  /\n\s+at \S.*[(:]\d+/, // a stack frame
  /\bat (?:async )?[\w$.<>]+ \((?:file:|node:|\/)/,
  /node:internal/,
  /node_modules/,
  /\/(?:work|home|usr|app|opt|srv)\/[\w./-]+\.(?:[cm]?js|ts)\b/,
  /\b(?:DriverException|DatabaseError|QueryFailedError|ZodError|TypeError|ReferenceError|RangeError)\b/,
  /\b(?:violates (?:foreign key|unique|check|not-null) constraint|invalid byte sequence|syntax error at or near|out of range for type)\b/,
  /\bMikroORM\b/,
];

/** Null when clean, else what leaked. */
export function leakIn(text: string): string | null {
  for (const pattern of LEAK_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return `${pattern}: …${text.slice(Math.max(0, match.index - 80), match.index + 120)}…`;
  }
  return null;
}

/**
 * A cheap fingerprint of everything a workspace owns (or all workspaces): one md5 per
 * table over its rows in id order. `api_tokens.last_used_at` is left out: authenticating
 * legitimately touches it (at most once a minute).
 */
export async function fingerprint(db: TestDatabase, workspaceId?: string): Promise<Record<string, string>> {
  const ws = workspaceId === undefined ? 'true' : 'workspace_id = $1';
  const params = workspaceId === undefined ? [] : [workspaceId];
  const agg = (table: string, row: string, order: string) =>
    `(select md5(coalesce(string_agg(${row}, '|' order by ${order}), '')) from ${table} t where ${ws}) as ${table}`;
  const [row] = await db.query<Record<string, string>>(
    `select
       ${agg('contacts', 't::text', 't.id')},
       ${agg('deals', 't::text', 't.id')},
       ${agg('pipelines', 't::text', 't.id')},
       ${agg('stages', 't::text', 't.id')},
       ${agg('custom_fields', 't::text', 't.id')},
       ${agg('memberships', 't::text', 't.id')},
       ${agg('idempotency_keys', 't::text', 't.workspace_id, t.key')},
       ${agg('api_tokens', "concat_ws(',', t.id, t.workspace_id, t.name, t.token_hash, t.scopes::text, t.created_by, t.expires_at::text, t.revoked_at::text)", 't.id')},
       (select md5(coalesce(string_agg(t::text, '|' order by t.id), '')) from workspaces t where ${workspaceId === undefined ? 'true' : 'id = $1'}) as workspaces`,
    params,
  );
  if (!row) throw new Error('no fingerprint');
  return row;
}

/** The tables whose fingerprints differ. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((k) => before[k] !== after[k]);
}

export type McpServerName = 'crm' | 'studio';

export async function connectMcp(baseUrl: string, server: McpServerName, bearer: string): Promise<Client> {
  const client = new Client({ name: 'resilience-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/${server}`), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }),
  );
  return client;
}

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: { type: string; text?: string }[];
}

export function toolText(result: ToolResult): string {
  return (result.content ?? []).map((c) => c.text ?? '').join('\n');
}

/**
 * fast-check parameters: `numRuns` (scaled by FC_RUNS_FACTOR), an overall time limit
 * so a slow machine ends early instead of timing out, and FC_SEED/FC_PATH to replay
 * a failure that fc.assert reported.
 */
export function fcParams<T>(numRuns: number, timeLimitMs: number): fc.Parameters<T> {
  const factor = Number(process.env.FC_RUNS_FACTOR ?? '1');
  const params: fc.Parameters<T> = {
    numRuns: Math.max(1, Math.round(numRuns * (Number.isFinite(factor) && factor > 0 ? factor : 1))),
    plugins: [fc.interruptAfterTimeLimit(timeLimitMs) as fc.Plugin<T>],
    // Shrinking on a live stack is slow; keep what it finds within reason.
    maxSkipsPerRun: 10,
    // The failing request and the seed to replay it, in the message tap prints.
    includeErrorInReport: true,
  };
  if (process.env.FC_SEED) params.seed = Number(process.env.FC_SEED);
  if (process.env.FC_PATH) params.path = process.env.FC_PATH;
  return params;
}

/** Renders a value for a failure message without flooding it. */
export function brief(value: unknown, max = 400): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  if (text === undefined) return 'undefined';
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
