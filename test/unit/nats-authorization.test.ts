import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { keysFromEnvironment, renderNatsAuthorization } from '../../shared/bus/nats-authorization.js';
import { NATS_ROLES, natsPermissionsOf } from '../../shared/bus/nats-permissions.js';
import { ROOT } from '../helpers/environment.js';

t.test('the shipped NATS authorization is what `crm nats config` prints for "crm"', async (t) => {
  const shipped = readFileSync(path.join(ROOT, 'deploy', 'nats', 'authorization.conf'), 'utf8');
  t.equal(shipped, renderNatsAuthorization('crm', keysFromEnvironment), 'regenerate: BUS_NAMESPACE=crm crm nats config > deploy/nats/authorization.conf');
});

t.test('no role but a worker subscribes to worker subjects, and only in its queue group', async (t) => {
  for (const role of NATS_ROLES) {
    const subscribes = natsPermissionsOf('crm', role).subscribe.allow;
    if (role.startsWith('worker-')) {
      // Besides its queue group, a worker reads only its own inbox (the webhooks worker's JetStream consumer replies there).
      const workerSubjects = subscribes.filter((s) => !s.startsWith(`_INBOX.crm.${role}.`));
      t.equal(workerSubjects.length, 1, `${role}: one subject`);
      t.match(workerSubjects[0], / crm\.workers\./, `${role}: with its queue group`);
    } else {
      t.notOk(subscribes.some((s) => s === 'crm.>' || s === '>' || /^crm\.(contacts|deals|schema)\./.test(s)), `${role}: no worker subjects`);
      t.ok(subscribes.every((s) => s.startsWith(`_INBOX.crm.${role}.`) || /^crm\.tokens\.[a-z-]+\.(revoked|grant-changed|signing-keys-changed)$/.test(s)), `${role}: its inbox and broadcasts only`);
    }
  }
});
