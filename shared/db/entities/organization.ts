import { defineEntity, p } from '@mikro-orm/core';

export const OrganizationSchema = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    createdAt: p.datetime(3),
  },
});

export class Organization extends OrganizationSchema.class {}
OrganizationSchema.setClass(Organization);
