import { CrmError } from '../shared/errors.js';
import { UsageError } from './usage-error.js';

/**
 * Runs a call whose input the command built from its options (or the environment: a password
 * from CRM_PASSWORD is named so). A refusal that names an input
 * field is told with the option that gave it ("--name is required", exit 2): the user typed
 * options, and the field's name ("name: is required") would leave them to guess which one.
 */
export async function withOptionNames<T>(options: Readonly<Record<string, string>>, usage: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const param = error instanceof CrmError && error.code === 'validation_failed' ? error.details.param : undefined;
    // Own keys only: a field named like an inherited property (constructor) names no option.
    const option = param !== undefined && Object.hasOwn(options, param) ? options[param] : undefined;
    if (error instanceof CrmError && param !== undefined && option !== undefined) {
      const prefix = `${param}: `;
      const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
      throw new UsageError(`${option} ${reason}`, usage);
    }
    throw error;
  }
}
