import t from 'tap';
import { oneAtATime } from '../../workers/runtime/one-at-a-time.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Call = { key: string; name: string; ms: number };

function recorder() {
  const log: string[] = [];
  const serve = oneAtATime(
    (call: Call) => call.key,
    async ({ name, ms }: Call) => {
      log.push(`start ${name}`);
      await sleep(ms);
      log.push(`end ${name}`);
      return name;
    },
  );
  return { log, serve };
}

t.test('the calls of one key run one at a time, in the order they were made, even when a later one is quicker', async (t) => {
  const { log, serve } = recorder();
  const answers = await Promise.all([serve({ key: 'k', name: 'a', ms: 30 }), serve({ key: 'k', name: 'b', ms: 1 }), serve({ key: 'k', name: 'c', ms: 10 })]);
  t.same(answers, ['a', 'b', 'c']);
  t.same(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
});

t.test('calls of different keys do not wait for each other', async (t) => {
  const { log, serve } = recorder();
  await Promise.all([serve({ key: 'import 1', name: 'slow', ms: 40 }), serve({ key: 'import 2', name: 'quick', ms: 1 })]);
  t.same(log, ['start slow', 'start quick', 'end quick', 'end slow']);
});

t.test('a call that fails does not stop the ones after it; a key is used again after it emptied', async (t) => {
  const serve = oneAtATime(
    () => 'k',
    async (n: number) => {
      await sleep(1);
      if (n === 1) throw new Error('refused');
      return n;
    },
  );
  const [first, second, third] = await Promise.allSettled([serve(0), serve(1), serve(2)]);
  t.same(first, { status: 'fulfilled', value: 0 });
  t.match(second, { status: 'rejected', reason: { message: 'refused' } });
  t.same(third, { status: 'fulfilled', value: 2 });
  await sleep(5);
  t.equal(await serve(3), 3, 'after the key was forgotten');
});
