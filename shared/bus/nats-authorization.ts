import { natsPermissionsOf, NATS_ROLES, type NatsRole, type NatsPermissions } from './nats-permissions.js';

/**
 * The `authorization` block of a NATS server configuration: one nkey user per role with
 * exactly the permissions of shared/bus/nats-permissions.ts. The server holds public keys
 * only; each process holds its own seed (NATS_NKEY_SEED).
 */

/** The environment variable the shipped configuration reads a role's public key from. */
export function publicKeyVariableOf(role: NatsRole): string {
  return `CRM_NKEY_${role.toUpperCase().replace(/-/g, '_')}`;
}

/** `$VARIABLE` references (the shipped file), or the keys themselves (tests, generated setups). */
export type PublicKeyOf = (role: NatsRole) => { variable: string } | { key: string };

const list = (subjects: readonly string[]) => `[${subjects.map((s) => JSON.stringify(s)).join(', ')}]`;

function permissionsBlock(p: NatsPermissions, indent: string): string[] {
  const lines: string[] = [];
  if (p.publish) lines.push(`publish: { allow: ${list(p.publish.allow)}${p.publish.deny ? `, deny: ${list(p.publish.deny)}` : ''} }`);
  lines.push(`subscribe: { allow: ${list(p.subscribe.allow)} }`);
  if (p.allowResponses) lines.push('allow_responses: true');
  return lines.map((l) => `${indent}${l}`);
}

export function renderNatsAuthorization(namespace: string, publicKeyOf: PublicKeyOf, extraUsers: string[] = []): string {
  const users = NATS_ROLES.map((role) => {
    const source = publicKeyOf(role);
    const nkey = 'variable' in source ? `$${source.variable}` : JSON.stringify(source.key);
    return [`    # ${role}`, '    {', `      nkey: ${nkey}`, '      permissions: {', ...permissionsBlock(natsPermissionsOf(namespace, role), '        '), '      }', '    }'].join('\n');
  });
  return [
    `# NATS users of the workspace CRM for BUS_NAMESPACE=${namespace}, printed by \`crm nats config\`:`,
    '# one nkey user per role, each allowed only its own subjects. Nobody else may connect.',
    'authorization {',
    '  users = [',
    [...users, ...extraUsers].join('\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}

/** The shipped configuration's form: every key from the environment of the NATS server. */
export const keysFromEnvironment: PublicKeyOf = (role) => ({ variable: publicKeyVariableOf(role) });
