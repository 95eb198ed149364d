import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.js';
import { Workspace } from './workspace.js';
import type { Permission, Visibility } from '../../auth/permissions.js';

export const MembershipSchema = defineEntity({
  name: 'Membership',
  tableName: 'memberships',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id'),
    permissions: p.array<Permission>(),
    visibility: p.string().$type<Visibility>(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class Membership extends MembershipSchema.class {}
MembershipSchema.setClass(Membership);
