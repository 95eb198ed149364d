import t from 'tap';
import { CoalescedSends } from '../../shared/bus/coalesced-sends.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

t.test('sends of one turn run together, in order, after the turn', async (t) => {
  const sends = new CoalescedSends();
  const written: string[] = [];
  for (const name of ['a', 'b', 'c']) sends.send(() => written.push(name), () => t.fail('nothing fails'));
  await Promise.resolve();
  t.same(written, [], 'not yet: a microtask later the turn still has callbacks to run');
  await nextTurn();
  t.same(written, ['a', 'b', 'c']);
  sends.send(() => written.push('d'), () => t.fail('nothing fails'));
  await nextTurn();
  t.same(written, ['a', 'b', 'c', 'd'], 'a later send starts a new batch');
});

t.test('a send that throws is reported to its own caller; the others still go', async (t) => {
  const sends = new CoalescedSends();
  const written: string[] = [];
  const failures: unknown[] = [];
  sends.send(() => written.push('first'), (e) => failures.push(e));
  sends.send(() => {
    throw new Error('connection closed');
  }, (e) => failures.push(e));
  sends.send(() => written.push('third'), (e) => failures.push(e));
  await nextTurn();
  t.same(written, ['first', 'third']);
  t.equal(failures.length, 1);
  t.match(failures[0], { message: 'connection closed' });
});

t.test('flush runs what is queued at once (before a connection drains), and only once', async (t) => {
  const sends = new CoalescedSends();
  let count = 0;
  sends.send(() => count++, () => t.fail('nothing fails'));
  sends.flush();
  t.equal(count, 1);
  await nextTurn();
  t.equal(count, 1, 'the scheduled flush finds nothing left');
});
