import t from 'tap';
import { TEMPORARY_PASSWORD_ALPHABET as ALPHABET, temporaryPassword } from '../../workers/tokens/credentials/temporary-password.js';

t.test('an invitation password draws every character of its alphabet equally often', async (t) => {
  const counts = new Map<string, number>();
  const passwords = Array.from({ length: 20_000 }, temporaryPassword);
  t.ok(passwords.every((p) => p.length === 18), '18 characters each');
  for (const password of passwords) for (const c of password) counts.set(c, (counts.get(c) ?? 0) + 1);
  t.same([...counts.keys()].sort(), [...ALPHABET].sort(), 'only and all of the alphabet');
  // A byte modulo 55 gives the first 256 % 55 = 36 characters 5 chances in 256 and the rest 4:
  // 25% likelier. About 6,500 draws each, so a fair draw is within a few percent.
  const mean = (chars: string[]) => chars.reduce((n, c) => n + (counts.get(c) ?? 0), 0) / chars.length;
  const ratio = mean([...ALPHABET.slice(0, 256 % ALPHABET.length)]) / mean([...ALPHABET.slice(256 % ALPHABET.length)]);
  t.ok(Math.abs(ratio - 1) < 0.05, `the first 36 characters are no likelier than the rest (ratio ${ratio.toFixed(3)})`);
});
