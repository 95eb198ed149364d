import type { StreamConfig } from 'nats';

/**
 * Why a key-value bucket's stream is not one this service would have made, or null. NATS
 * cannot limit what a stream-create request configures: a key allowed to create the bucket
 * (a gateway's, in earlier releases) could have made it with a worker's subjects
 * (`<ns>.tokens.>`) or another stream as its source, to read sign-in passwords and events
 * through it. A bucket in that state is refused, and the operator told which subjects it captures.
 */
export function keyValueStreamProblem(bucket: string, config: Pick<StreamConfig, 'subjects' | 'mirror' | 'sources' | 'republish' | 'subject_transform'>): string | null {
  const own = `$KV.${bucket}.>`;
  const foreign = (config.subjects ?? []).filter((s) => s !== own);
  if (foreign.length > 0) return `also captures ${foreign.join(', ')}`;
  if (config.mirror) return `mirrors the stream ${config.mirror.name}`;
  if (config.sources && config.sources.length > 0) return `copies the streams ${config.sources.map((s) => s.name).join(', ')}`;
  // Republishing (or transforming) what gateways write would put their values on any subject: an event's, a broadcast's.
  if (config.republish) return `republishes its values to ${config.republish.dest}`;
  if (config.subject_transform) return `transforms its subjects to ${config.subject_transform.dest}`;
  return null;
}
