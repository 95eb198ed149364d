import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ADMIN_PERMISSIONS } from '../../../shared/auth/permissions.js';
import type { bootstrapWorkspace } from '../../../shared/contracts/identity.js';
import { Membership, Organization, Workspace } from '../../../shared/db/entities/index.js';
import { WORKSPACE_FILTER } from '../../../shared/db/orm.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import { operatorContext } from '../../../shared/contracts/call-context.js';
import { EventRecorder } from '../../runtime/events/event-recorder.js';
import { newId } from '../../../shared/ids.js';
import { createDefaultPipeline } from '../../schema/default-pipeline.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { ensureUser } from '../members/ensure-user.js';
import { memberEventObject, memberRecordOf } from '../members/member-record.js';
import { organizationIdByName, workspaceIdsByName } from './find-by-name.js';

/**
 * `crm bootstrap`: the organization (if new), the workspace (if new) with its default
 * pipeline, and the user as the workspace's administrator. Safe to run again, and at the
 * same time: two runs creating the same organization, workspace or user race on its unique
 * name, and the loser runs once more, finding what the winner made.
 */
export const bootstrapWorkspaceHandler: UnscopedHandler<typeof bootstrapWorkspace> = async (call) => {
  try {
    return await bootstrapOnce(call);
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    return bootstrapOnce(call);
  }
};

const bootstrapOnce: UnscopedHandler<typeof bootstrapWorkspace> = async ({ input, em, requestId }) =>
  em.transactional(async (tx) => {
    const now = new Date();
    let organization: Organization;
    const orgId = await organizationIdByName(tx, input.organization);
    const organizationCreated = orgId === null;
    if (orgId) organization = await tx.findOneOrFail(Organization, { id: orgId });
    else organization = tx.create(Organization, { id: newId('organization'), name: input.organization, createdAt: now });

    const { user, created: userCreated } = await ensureUser(tx, input.email, input.password);

    const [wsId] = organizationCreated ? [] : await workspaceIdsByName(tx, input.workspace, organization.id);
    let workspace: Workspace;
    if (wsId) workspace = await tx.findOneOrFail(Workspace, { id: wsId });
    else {
      workspace = tx.create(Workspace, {
        id: newId('workspace'),
        organizationId: organization.id,
        name: input.workspace,
        defaultCountry: input.default_country ?? null,
        createdAt: now,
        updatedAt: now,
      });
      createDefaultPipeline(tx, workspace.id);
    }

    tx.setFilterParams(WORKSPACE_FILTER, { id: workspace.id });
    const membership = await tx.findOne(Membership, { userId: user.id });
    const db = workspaceSql(tx, workspace.id);
    const before = membership ? memberEventObject(db, memberRecordOf(user.email, membership)) : null;
    const member =
      membership ??
      tx.create(Membership, {
        id: newId('membership'),
        workspaceId: workspace.id,
        userId: user.id,
        permissions: [...ADMIN_PERMISSIONS],
        visibility: 'all',
        createdAt: now,
        updatedAt: now,
      });
    if (membership) {
      membership.permissions = [...ADMIN_PERMISSIONS];
      membership.visibility = 'all';
      membership.updatedAt = now;
    }
    await tx.flush();
    // The administrator's membership is the workspace's first event (or a change, when run again).
    const after = memberEventObject(db, memberRecordOf(user.email, member));
    await new EventRecorder(db, operatorContext(workspace.id), requestId).record(
      before ? { type: 'member.updated', object: after, previous: before } : { type: 'member.added', object: after },
    );
    return {
      organization: { id: organization.id, name: organization.name, created: organizationCreated },
      workspace: { id: workspace.id, name: workspace.name, created: !wsId, default_country: workspace.defaultCountry ?? null },
      user: { id: user.id, email: user.email, created: userCreated },
    };
  });
