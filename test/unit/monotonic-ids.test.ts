import t from 'tap';
import { idOf, newId } from '../../shared/ids.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The 10 time characters an id made at `ms` starts with, worked out here independently. */
function timePart(ms: number): string {
  return ms.toString(32).toUpperCase().padStart(10, '0').replace(/[A-V]/g, (c) => CROCKFORD[parseInt(c, 32)] as string);
}

/** The 16 random characters as a number. */
function randomValue(id: string): bigint {
  return [...id.slice(-16)].reduce((n, c) => n * 32n + BigInt(CROCKFORD.indexOf(c)), 0n);
}

function strictlyIncreasing(ids: string[]): boolean {
  return ids.every((id, i) => i === 0 || (ids[i - 1] as string) < id);
}

// A kind no other unit test makes ids of: they share this process's counters.
t.test('ids made in one millisecond by one process sort in the order they were made', async (t) => {
  const now = Date.now();
  const ids = Array.from({ length: 20_000 }, () => newId('note', now));
  t.ok(strictlyIncreasing(ids), 'each id sorts after the one made before it (20,000 in one millisecond)');
  t.equal(new Set(ids).size, ids.length, 'no id repeats');

  t.ok(
    ids.every((id) => /^note_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)),
    'the format is unchanged: prefix, 10 time and 16 random Crockford characters',
  );
  t.ok(ids.every((id) => id.slice(5, 15) === timePart(now)), 'the time part is the millisecond they were made in');
  t.ok(ids.every((id) => idOf('note').safeParse(id).success), 'every id passes its own schema');

  // Counting on by a random step, not by one: the next id cannot be told from the last.
  const steps = ids.slice(1).map((id, i) => randomValue(id) - randomValue(ids[i] as string));
  t.ok(steps.every((s) => s >= 1n && s <= 2n ** 32n), 'each step is 1 to 2^32');
  t.ok(new Set(steps).size > steps.length * 0.99, 'the steps are random');

  const later = newId('note', now + 1);
  t.ok((ids.at(-1) as string) < later, 'the next millisecond sorts after');
  t.equal(later.slice(5, 15), timePart(now + 1));
});

t.test('ids made at Date.now() in a tight loop, across millisecond boundaries, increase', async (t) => {
  const ids: string[] = [];
  // At least 5,000 ids and at least 20 ms: many per millisecond, across several, however fast the machine.
  const until = Date.now() + 20;
  while (Date.now() < until || ids.length < 5_000) ids.push(newId('note'));
  t.ok(new Set(ids.map((id) => id.slice(5, 15))).size > 1, 'across more than one millisecond');
  t.ok(strictlyIncreasing(ids), 'each id sorts after the one made before it');
});

t.test('an id made after the clock stepped back still sorts after the ones before', async (t) => {
  const now = Date.now() + 5;
  const before = newId('note', now);
  const after = newId('note', now - 3);
  t.ok(before < after, 'the later id sorts after');
  t.equal(after.slice(5, 15), before.slice(5, 15), 'it keeps the time of the last id');
});
