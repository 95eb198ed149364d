import { parsePermissionList, Visibility } from '../../shared/auth/permissions.js';
import { addUser } from '../../shared/contracts/identity.js';
import { parseCommandArgs, required, withoutPositionals } from '../args.js';
import { printJson, printLines } from '../output.js';
import { PASSWORD_OPTIONS, PASSWORD_SOURCES, passwordFrom, passwordSourceOf } from '../password.js';
import { UsageError } from '../usage-error.js';
import { withLocalServices } from '../with-local-services.js';
import { withOptionNames } from '../option-refusal.js';

export const usage = `Usage: crm users add --workspace WORKSPACE --email EMAIL (--password PASSWORD | --password-stdin)
                     --permissions LIST --visibility all|owned [--json]

Adds a user (created if new) to a workspace. LIST is comma-separated from:
contacts.read, contacts.write, deals.read, deals.write, configuration.
Visibility "owned" limits the member's reads to records they own.
${PASSWORD_SOURCES}`;

export async function run(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'add') throw new UsageError(sub ? `Unknown users command: ${sub}.` : 'Missing the users command.', usage);
  const args = withoutPositionals(
    parseCommandArgs(
      rest,
      {
        workspace: { type: 'string' },
        email: { type: 'string' },
        ...PASSWORD_OPTIONS,
        permissions: { type: 'string' },
        visibility: { type: 'string' },
        json: { type: 'boolean' },
      },
      usage,
    ),
    usage,
  );
  const { permissions, unknown } = parsePermissionList(required(args, 'permissions', usage));
  if (unknown.length > 0) throw new UsageError(`Unknown permission: ${unknown.join(', ')}.`, usage);
  if (permissions.length === 0) throw new UsageError('Give at least one permission.', usage);
  const visibility = Visibility.safeParse(required(args, 'visibility', usage));
  if (!visibility.success) throw new UsageError('--visibility must be "all" or "owned".', usage);
  const workspaceRef = required(args, 'workspace', usage);
  const input = { email: required(args, 'email', usage), password: await passwordFrom(args, usage), permissions, visibility: visibility.data };

  const member = await withOptionNames({ email: '--email', password: passwordSourceOf(args) }, usage, () =>
    withLocalServices(async ({ bus, requestId, inWorkspace }) => {
      const { context } = await inWorkspace(workspaceRef);
      return (await bus.call(addUser, input, { context, requestId })).result;
    }),
  );
  if (args.values.json) return printJson(member);
  printLines(
    member.member_created
      ? `${member.email} (${member.user_id}) ${member.user_created ? 'created and ' : ''}added to ${member.workspace_id}`
      : `${member.email} (${member.user_id}) was a member of ${member.workspace_id} already: permissions and visibility updated`,
    `permissions: ${member.permissions.join(', ')}; visibility: ${member.visibility}`,
  );
}
