/**
 * NATS_URL as it may be logged or shown: nats.js takes credentials in a server's URL
 * (`nats://user:password@host`, `nats://token@host`), which must not reach a log line or
 * an error message, so what precedes `@` is replaced. Comma-separated servers each lose theirs.
 */
export function printableNatsUrl(url: string): string {
  return url
    .split(',')
    .map((server) => server.trim().replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^@/]*@/i, '$1[redacted]@'))
    .join(',');
}
