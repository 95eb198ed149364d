import type { resolveWorkspace } from '../../../shared/contracts/identity.js';
import { Organization, Workspace } from '../../../shared/db/entities/index.js';
import { NotFoundError, ValidationError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { workspaceIdsByName } from './find-by-name.js';

/** For the command line: `--workspace` takes an id (ws_…) or a name. */
export const resolveWorkspaceHandler: UnscopedHandler<typeof resolveWorkspace> = async ({ input, em }) => {
  const ids = input.ref.startsWith('ws_') ? [input.ref] : await workspaceIdsByName(em, input.ref);
  if (ids.length > 1) {
    throw new ValidationError(`Several workspaces are called "${input.ref}" (${ids.join(', ')}); pass the id instead.`, 'workspace');
  }
  const workspace = ids[0] ? await em.findOne(Workspace, { id: ids[0] }) : null;
  if (!workspace) throw new NotFoundError('workspace', input.ref, 'workspace');
  const organization = await em.findOneOrFail(Organization, { id: workspace.organizationId });
  return {
    id: workspace.id,
    name: workspace.name,
    organization: { id: organization.id, name: organization.name },
    default_country: workspace.defaultCountry ?? null,
  };
};
