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
  const [result, latencies] = await timed({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: options.body ? [{ setupRequest: (req) => ({ ...req, body: options.body?.() }) }] : undefined,
  });
  return toLoadResult(options.name, result, latencies);
}

/**
 * Runs autocannon and keeps every successful response's latency as measured (ms, with its
 * fraction): autocannon's own percentiles are whole milliseconds, too coarse for requests
 * of 3 or 4 ms (p50s of 3 and 4 would read as 1.33x). Unlike autocannon's histogram at a
 * fixed rate, these are not corrected for coordinated omission: the fixed-rate runs here
 * stay far below what the service can serve, where that correction changes nothing.
 */
export async function timed(options: autocannon.Options): Promise<[autocannon.Result, number[]]> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve([result, latencies])));
    instance.on('response', (_client, statusCode, _bytes, ms) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(ms);
    });
  });
}

/** The value at or below which `p` percent of `values` lie (nearest rank: the ceil(p·n/100)-th smallest). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** What a run of autocannon reports, as one row of the table (errors include timeouts); percentiles from `latencies` when given. */
export function toLoadResult(name: string, result: autocannon.Result, latencies?: readonly number[]): LoadResult {
  return {
    name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: latencies?.length ? percentile(latencies, 50) : result.latency.p50,
    p99: latencies?.length ? percentile(latencies, 99) : result.latency.p99,
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
