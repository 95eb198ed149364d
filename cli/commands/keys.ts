import { rotateSigningKey } from '../../shared/contracts/oauth.js';
import { parseCommandArgs, withoutPositionals } from '../args.js';
import { printJson, printLines } from '../output.js';
import { UsageError } from '../usage-error.js';
import { withLocalServices } from '../with-local-services.js';

export const usage = `Usage: crm keys rotate [--json]

Starts signing OAuth access tokens with a new key. The previous keys stay published at
/.well-known/jwks.json for a day, so tokens they signed keep working until they expire.`;

export async function run(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'rotate') throw new UsageError(sub ? `Unknown keys command: ${sub}.` : 'Missing the keys command.', usage);
  const args = withoutPositionals(parseCommandArgs(rest, { json: { type: 'boolean' } }, usage), usage);
  const result = await withLocalServices(async ({ bus, requestId }) => (await bus.call(rotateSigningKey, {}, { context: null, requestId })).result);
  if (args.values.json) return printJson(result);
  printLines(`Signing with ${result.kid}.${result.retired.length ? ` Retired (still published for a day): ${result.retired.join(', ')}.` : ''}`);
}
