import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  /** Requests completed in the run. */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Builds each request's body (e.g. a fresh phone number per POST). */
  body?: () => string;
  connections: number;
  durationSeconds: number;
}

/** Drives one endpoint with autocannon and reports throughput and latency percentiles (ms). */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: options.body
      ? [{ setupRequest: (req) => ({ ...req, body: options.body?.() }) }]
      : undefined,
  });
  return toLoadResult(options.name, result);
}

/** What a run of autocannon reports, as one row of the table (errors include timeouts). */
export function toLoadResult(name: string, result: autocannon.Result): LoadResult {
  return {
    name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Rows as aligned columns: the first (the label) left-aligned, the figures right-aligned. */
export function formatColumns(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')).join('\n');
}

export function formatTable(results: LoadResult[]): string {
  return formatColumns([
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx'],
    ...results.map((r) => [r.name, String(r.rps), r.p50.toFixed(1), r.p99.toFixed(1), String(r.errors), String(r.non2xx)]),
  ]);
}
