import t from 'tap';
import { oneAtATime } from '../../workers/runtime/one-at-a-time.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('calls run one at a time, in the order they were made, even when a later one is quicker', async (t) => {
  const log: string[] = [];
  const serve = oneAtATime(async ({ name, ms }: { name: string; ms: number }) => {
    log.push(`start ${name}`);
    await sleep(ms);
    log.push(`end ${name}`);
    return name;
  });
  const answers = await Promise.all([serve({ name: 'a', ms: 30 }), serve({ name: 'b', ms: 1 }), serve({ name: 'c', ms: 10 })]);
  t.same(answers, ['a', 'b', 'c']);
  t.same(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
});

t.test('a call that fails does not stop the ones after it', async (t) => {
  const serve = oneAtATime(async (n: number) => {
    await sleep(1);
    if (n === 1) throw new Error('refused');
    return n;
  });
  const [first, second, third] = await Promise.allSettled([serve(0), serve(1), serve(2)]);
  t.same(first, { status: 'fulfilled', value: 0 });
  t.match(second, { status: 'rejected', reason: { message: 'refused' } });
  t.same(third, { status: 'fulfilled', value: 2 });
});
