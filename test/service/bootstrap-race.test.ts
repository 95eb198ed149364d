import t from 'tap';
import { useStack } from '../helpers/shared-stack.js';

/**
 * `crm bootstrap` is safe to run again, and at the same time: runs that create the same new
 * organization race on its unique name, and the loser finds what the winner made instead of
 * failing with an internal error.
 */
const stack = await useStack(t);

t.test('concurrent bootstraps of one new organization all succeed, into one organization', async (t) => {
  const org = `Race ${Date.now()}`;
  const runs = await Promise.all(
    ['first', 'second', 'third', 'fourth'].map((who) => stack.bootstrap({ org, workspace: 'Main', email: `${who}@race-${Date.now()}.test` })),
  );
  t.equal(new Set(runs.map((r) => r.organization.id)).size, 1, 'one organization');
  t.equal(new Set(runs.map((r) => r.workspace.id)).size, 1, 'one workspace');
  const members = await stack.db.query<{ n: number }>('select count(*)::int as n from memberships where workspace_id = $1', [runs[0]!.workspace.id]);
  t.equal(members[0]?.n, 4, 'each user an administrator of it');
});
