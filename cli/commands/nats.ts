import { keysFromEnvironment, publicKeyVariableOf, renderNatsAuthorization } from '../../shared/bus/nats-authorization.js';
import { newRoleKeyPairs } from '../../shared/bus/nats-keys.js';
import { NATS_ROLES } from '../../shared/bus/nats-permissions.js';
import { loadConfig } from '../../shared/config.js';
import { parseCommandArgs, withoutPositionals } from '../args.js';
import { printJson, printLines } from '../output.js';
import { UsageError } from '../usage-error.js';

export const usage = `Usage: crm nats config
       crm nats keys [--json]

config  prints the NATS server's authorization block for BUS_NAMESPACE: one nkey user
        per role (gateway, cli, one per worker kind), each allowed only its own
        subjects. It reads each role's public key from the NATS server's environment
        (${publicKeyVariableOf('gateway')}, …). deploy/nats/authorization.conf is its output for "crm".
keys    prints a new key pair per role: give each process its NATS_NKEY_SEED (a secret),
        and the NATS server the public keys.`;

export async function run(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'config') {
    // Its output is the server's configuration, never JSON: --json is refused, not ignored.
    withoutPositionals(parseCommandArgs(rest, {}, usage), usage);
    process.stdout.write(renderNatsAuthorization(loadConfig().busNamespace, keysFromEnvironment));
    return;
  }
  if (sub !== 'keys') throw new UsageError(sub ? `Unknown nats command: ${sub}.` : 'Missing the nats command.', usage);
  const args = withoutPositionals(parseCommandArgs(rest, { json: { type: 'boolean' } }, usage), usage);
  const pairs = newRoleKeyPairs();
  if (args.values.json) return printJson(pairs);
  printLines(
    '# Seeds: one per process role, as NATS_NKEY_SEED. Keep them secret.',
    ...NATS_ROLES.map((role) => `${role}: NATS_NKEY_SEED=${pairs[role].seed}`),
    '# Public keys: the NATS server\'s environment, read by its authorization block.',
    ...NATS_ROLES.map((role) => `${publicKeyVariableOf(role)}=${pairs[role].publicKey}`),
  );
}
