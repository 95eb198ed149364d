import { bootstrapWorkspace } from '../../shared/contracts/identity.js';
import { optional, parseCommandArgs, required, withoutPositionals } from '../args.js';
import { printJson, printLines } from '../output.js';
import { PASSWORD_OPTIONS, PASSWORD_SOURCES, passwordFrom, passwordSourceOf } from '../password.js';
import { withLocalServices } from '../with-local-services.js';
import { withOptionNames } from '../option-refusal.js';
import { crmInvocation } from '../crm-invocation.js';

export const usage = `Usage: crm bootstrap --org NAME --workspace NAME --email EMAIL (--password PASSWORD | --password-stdin)
                     [--default-country CC] [--json]

Creates the organization (if new), the workspace and the user as its administrator.
Run again with an existing organization or user to add another workspace to them.
${PASSWORD_SOURCES}`;

export async function run(argv: string[]): Promise<void> {
  const args = withoutPositionals(
    parseCommandArgs(
      argv,
      {
        org: { type: 'string' },
        workspace: { type: 'string' },
        email: { type: 'string' },
        ...PASSWORD_OPTIONS,
        'default-country': { type: 'string' },
        json: { type: 'boolean' },
      },
      usage,
    ),
    usage,
  );
  const input = {
    organization: required(args, 'org', usage),
    workspace: required(args, 'workspace', usage),
    email: required(args, 'email', usage),
    password: await passwordFrom(args, usage),
    default_country: optional(args, 'default-country') ?? null,
  };
  const result = await withOptionNames(
    { organization: '--org', workspace: '--workspace', email: '--email', password: passwordSourceOf(args), default_country: '--default-country' },
    usage,
    () => withLocalServices(async ({ bus, requestId }) => (await bus.call(bootstrapWorkspace, input, { context: null, requestId })).result),
  );
  if (args.values.json) return printJson(result);
  const verb = (created: boolean) => (created ? 'created' : 'exists');
  printLines(
    `Organization  ${result.organization.name} (${result.organization.id}) ${verb(result.organization.created)}`,
    `Workspace     ${result.workspace.name} (${result.workspace.id}) ${verb(result.workspace.created)}`,
    `Administrator ${result.user.email} (${result.user.id}) ${verb(result.user.created)}`,
    '',
    // The id: the name may be another organization's workspace's too, or read as an id (ws_…), and then address nothing or several.
    `Next: ${crmInvocation()} tokens create --workspace ${result.workspace.id} --scopes contacts:read,contacts:write`,
  );
}
