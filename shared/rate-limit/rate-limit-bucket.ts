import { connect } from 'nats';

/** The JetStream key-value bucket where a deployment's gateways count requests. */
export function rateLimitBucketOf(busNamespace: string): string {
  return `${busNamespace}-rate-limits`;
}

/** Keys live two windows, long enough for the one-minute window they count. */
export const RATE_LIMIT_KEY_TTL_MS = 120_000;

/**
 * Deletes a deployment's rate-limit bucket, if there is one. For short-lived namespaces
 * (test and benchmark stacks on a shared NATS), whose buckets would otherwise pile up
 * in JetStream; a deployment's own bucket only holds counts that expire.
 */
export async function deleteRateLimitBucket(natsUrl: string, busNamespace: string): Promise<void> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'rate-limit cleanup' });
  try {
    const jsm = await nc.jetstreamManager();
    // A KV bucket is the stream KV_<bucket>.
    await jsm.streams.delete(`KV_${rateLimitBucketOf(busNamespace)}`).catch(() => false);
  } finally {
    await nc.close();
  }
}
