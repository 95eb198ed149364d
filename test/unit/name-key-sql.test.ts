import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import pg from 'pg';
import t from 'tap';
import { nameKey } from '../../shared/contracts/common.js';
import { nameKey as sqlNameKey } from '../../workers/runtime/same-name.js';
import { ADMIN_DATABASE_URL } from '../helpers/environment.js';

/**
 * The gateway and the contracts compare names in JavaScript (nameKey), the workers in Postgres
 * (sameName): the two must fold alike, or a name the tools find is one a deal cannot be put in,
 * or a select option refused as a repeat is one the database takes twice.
 */
const compiler = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Each name through the workers' fold, in one query. */
async function foldedInSql(names: readonly string[]): Promise<string[]> {
  const query = sql<{ key: string }>`select ${sqlNameKey(sql.ref('v'))} as key from unnest(${sql.val(names)}::text[]) with ordinality as t(v, n) order by n`.compile(compiler);
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<{ key: string }>(query.sql, [...query.parameters])).rows.map((r) => r.key);
  } finally {
    await client.end();
  }
}

const hidden = /\p{Default_Ignorable_Code_Point}/u;
const everyHiddenCharacter: string[] = [];
for (let c = 0; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  if (hidden.test(String.fromCodePoint(c))) everyHiddenCharacter.push(String.fromCodePoint(c));
}

const samples = [
  'Closed Won',
  'Closed\u200bWon',
  'Closed \u200b Won',
  '\u2060Closed Won\u00ad',
  'Closed\ufeffWon',
  'Cl\u00adosed Won',
  'Closed\u180eWon',
  'Closed\u2061\u2062\u2063\u2064Won',
  '\u200eClosed\u200f \u202aWon\u202c \u2066x\u2069',
  'Won\u{e0057}\u{e006f}\u{e006e}',
  '\u2764\ufe0f Hot',
  '\u8fba\u{e0101}',
  'می\u200cخواهم',
  'ക്\u200dക',
  '\u{1f469}\u200d\u{1f4bb} Devs',
  '\u3164',
  '  Gold \u00a0 tier ',
  'CAFÉ',
  ...everyHiddenCharacter.map((c) => `a${c}b`),
];

t.test('JavaScript and Postgres fold each sample alike', async (t) => {
  const inSql = await foldedInSql(samples);
  const differing = samples.map((s, i) => ({ sample: s, js: nameKey(s), sql: inSql[i] })).filter((r) => r.js !== r.sql);
  t.same(differing, [], 'no sample folds otherwise');
});

t.test('characters that show as nothing are folded out; a joiner too; U+FEFF is a space', async (t) => {
  t.equal(nameKey('Closed\u200bWon'), 'closedwon');
  t.equal(nameKey('Closed \u200b Won'), 'closed won');
  t.equal(nameKey('Closed\u2060 Won'), nameKey('Closed Won'));
  t.equal(nameKey('Gold\u00ad tier'), nameKey('gold tier'));
  t.equal(nameKey('Closed\ufeffWon'), 'closed won', 'as the contracts store it: \\s and trim() take U+FEFF for a space');
  t.equal(nameKey('Won\u{e0057}'), 'won', 'tag characters');
  t.equal(nameKey('می\u200cخواهم'), nameKey('میخواهم'), 'ZWNJ: compared without it, stored with it');
  t.ok(everyHiddenCharacter.every((c) => c === '\ufeff' || nameKey(`a${c}b`) === 'ab'), 'every other default-ignorable character');
});
