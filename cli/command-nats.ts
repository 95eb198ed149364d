import { natsConnectionOptions } from '../shared/bus/nats-identity.js';
import { printableNatsUrl } from '../shared/bus/printable-nats-url.js';
import { NatsTransport } from '../shared/bus/nats-transport.js';
import { ConfigError, type Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';

/**
 * How long a command waits for NATS to answer at all. Services wait for it forever (they may
 * start first); a person at a terminal, or a script, is told instead of left waiting. 20 s, the
 * NATS client's own connect timeout: on a host loaded to several times its cores, a connection
 * whose nkey handshake missed the server's 2 s authorization timeout is retried, and 10 s was
 * seen to run out before a retry got through.
 */
export const COMMAND_NATS_WAIT_MS = 20_000;

/** The command line's NATS connection (role cli), or a ConfigError once NATS has not answered for COMMAND_NATS_WAIT_MS. */
export async function connectCommandNats(config: Config & { natsUrl: string }, name: string, log: Logger): Promise<NatsTransport> {
  let timer: NodeJS.Timeout | undefined;
  const unreachable = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ConfigError(`NATS at ${printableNatsUrl(config.natsUrl)} (NATS_URL) did not answer in ${COMMAND_NATS_WAIT_MS / 1000} s: start it, or correct NATS_URL. Nothing was changed.`)),
      COMMAND_NATS_WAIT_MS,
    );
  });
  try {
    return await Promise.race([NatsTransport.connect(config.natsUrl, name, log, natsConnectionOptions(config, 'cli'), { drainGraceMs: config.busTimeoutMs }), unreachable]);
  } finally {
    clearTimeout(timer);
  }
}
