import { readFileSync } from 'node:fs';
import { credsAuthenticator, nkeyAuthenticator, type ConnectionOptions } from 'nats';
import { ConfigError, type Config } from '../config.js';
import { inboxPrefixOf, type NatsRole } from './nats-permissions.js';

/**
 * How a process in `role` connects: its credential (at most one kind), TLS when a CA is
 * given, and the inbox its role may read.
 */
export function natsConnectionOptions(config: Pick<Config, 'busNamespace' | 'nats'>, role: NatsRole): Partial<ConnectionOptions> {
  const { user, password, nkeySeed, creds, tlsCa, tlsCert, tlsKey } = config.nats;
  const kinds = [user !== undefined || password !== undefined, nkeySeed !== undefined, creds !== undefined].filter(Boolean).length;
  if (kinds > 1) throw new ConfigError('Give NATS one kind of credential: NATS_USER and NATS_PASSWORD, NATS_NKEY_SEED, or NATS_CREDS.');
  if ((user === undefined) !== (password === undefined)) throw new ConfigError('NATS_USER and NATS_PASSWORD go together.');
  if ((tlsCert === undefined) !== (tlsKey === undefined)) throw new ConfigError('NATS_TLS_CERT and NATS_TLS_KEY go together.');

  const options: Partial<ConnectionOptions> = { inboxPrefix: inboxPrefixOf(config.busNamespace, role) };
  if (user !== undefined) Object.assign(options, { user, pass: password });
  if (nkeySeed !== undefined) options.authenticator = nkeyAuthenticator(new TextEncoder().encode(nkeySeed));
  if (creds !== undefined) options.authenticator = credsAuthenticator(readFileSync(creds));
  if (tlsCa !== undefined || tlsCert !== undefined) options.tls = { caFile: tlsCa, certFile: tlsCert, keyFile: tlsKey };
  return options;
}
