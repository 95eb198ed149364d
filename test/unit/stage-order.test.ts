import fc from 'fast-check';
import t from 'tap';
import { insertStageAt, moveStageTo, removeStageAt, type StageShift } from '../../workers/schema/stage-order.js';

/** What shiftStages does in SQL, on a list of positions. */
function apply(positions: number[], shift: StageShift | null): number[] {
  if (!shift) return positions;
  return positions.map((p) => (p >= shift.from && p <= shift.to ? p + shift.delta : p));
}

/** Stages named by their index; returns the names in position order. */
function order(positions: number[]): number[] {
  return positions.map((p, name) => [p, name] as const).sort((a, b) => a[0] - b[0]).map(([, name]) => name);
}

const gapless = (positions: number[]) => [...positions].sort((a, b) => a - b).every((p, i) => p === i);

t.test('insert: the new stage lands at the requested place, the rest keep their order without gaps', async (t) => {
  t.same(insertStageAt(undefined, 3), { position: 3, shift: { from: 3, to: 2, delta: 1 } }, 'default: last, nothing moves');
  t.same(insertStageAt(0, 3), { position: 0, shift: { from: 0, to: 2, delta: 1 } });
  t.equal(insertStageAt(99, 3).position, 3, 'past the end: last');
  fc.assert(
    fc.property(fc.nat(12), fc.option(fc.nat(15), { nil: undefined }), (count, requested) => {
      const before = Array.from({ length: count }, (_, i) => i);
      const { position, shift } = insertStageAt(requested, count);
      const after = [...apply(before, shift), position];
      const expected = [...before];
      expected.splice(Math.min(requested ?? count, count), 0, count);
      return gapless(after) && JSON.stringify(order(after)) === JSON.stringify(expected);
    }),
  );
});

t.test('move: the stage lands at the requested place (at most last), the others close up', async (t) => {
  t.same(moveStageTo(2, 2, 4), { position: 2, shift: null }, 'same place: nothing moves');
  t.same(moveStageTo(3, 0, 4), { position: 0, shift: { from: 0, to: 2, delta: 1 } });
  t.same(moveStageTo(0, 9, 4), { position: 3, shift: { from: 1, to: 3, delta: -1 } });
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 12 }), fc.nat(11), fc.nat(15), (count, currentSeed, requested) => {
      const current = currentSeed % count;
      const before = Array.from({ length: count }, (_, i) => i);
      const { position, shift } = moveStageTo(current, requested, count);
      const after = apply(before, shift);
      after[current] = position;
      const expected = before.filter((i) => i !== current);
      expected.splice(Math.min(requested, count - 1), 0, current);
      return gapless(after) && JSON.stringify(order(after)) === JSON.stringify(expected);
    }),
  );
});

t.test('remove: the stages after it move up one', async (t) => {
  t.same(removeStageAt(1, 4), { from: 2, to: 3, delta: -1 });
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 12 }), fc.nat(11), (count, seed) => {
      const removed = seed % count;
      const after = apply(Array.from({ length: count }, (_, i) => i), removeStageAt(removed, count)).filter((_, i) => i !== removed);
      return gapless(after) && JSON.stringify(order(after)) === JSON.stringify(Array.from({ length: count }, (_, i) => i).filter((i) => i !== removed).map((_, k) => k));
    }),
  );
});
