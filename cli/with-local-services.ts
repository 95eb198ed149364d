import { loadConfig } from '../shared/config.js';
import { createLogger } from '../shared/logger.js';
import type { LocalServices } from './local-services.js';

/**
 * Runs an administrative command against the database, then releases everything it
 * opened. `component` names the command in its log lines.
 */
export async function withLocalServices<T>(work: (services: LocalServices) => Promise<T>, component = 'crm'): Promise<T> {
  const config = loadConfig();
  // Logs go to stderr so that stdout holds only the command's output.
  const log = createLogger({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, component, fd: 2 });
  // Loaded only now: a usage error or --help answers without loading the workers and the ORM.
  const { openLocalServices } = await import('./local-services.js');
  const services = await openLocalServices(config, log);
  try {
    return await work(services);
  } finally {
    await services.close();
  }
}
