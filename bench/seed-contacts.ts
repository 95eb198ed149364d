import type pg from 'pg';

/** `rows` contacts in one workspace, one second apart from 2025-01-01, each with a distinct phone and e-mail. */
export async function seedContacts(db: pg.Client, workspaceId: string, rows: number, idPrefix = 'con_B'): Promise<void> {
  await db.query(
    `insert into contacts (id, workspace_id, first_name, last_name, email, phone, status, custom_fields, created_at, updated_at)
     select $3 || lpad(i::text, 10, '0'), $1, 'First' || i, 'Last' || i, 'person' || i || '@example.test',
            '+1650' || lpad((2000000 + i)::text, 7, '0'), 'active', '{}',
            timestamptz '2025-01-01' + i * interval '1 second', timestamptz '2025-01-01' + i * interval '1 second'
     from generate_series(1, $2::int) as i`,
    [workspaceId, rows, idPrefix],
  );
}

/** First names as people write them (accents included) and as their e-mail addresses spell them. */
const FIRST_NAMES = [
  ['Ada', 'ada'], ['Zoë', 'zoe'], ['Émile', 'emile'], ['José', 'jose'], ['Grace', 'grace'], ['Alan', 'alan'], ['Linus', 'linus'], ['Margaret', 'margaret'],
  ['Björn', 'bjorn'], ['Chloé', 'chloe'], ['Dmitri', 'dmitri'], ['Fatima', 'fatima'], ['Hélène', 'helene'], ['Ingrid', 'ingrid'], ['Jürgen', 'jurgen'], ['Kenji', 'kenji'],
  ['Léa', 'lea'], ['Mateo', 'mateo'], ['Noémie', 'noemie'], ['Olivia', 'olivia'], ['Pedro', 'pedro'], ['Quentin', 'quentin'], ['Raphaël', 'raphael'], ['Søren', 'soren'],
  ['Tomás', 'tomas'], ['Ulrike', 'ulrike'], ['Valérie', 'valerie'], ['William', 'william'], ['Xavier', 'xavier'], ['Yasmin', 'yasmin'], ['Zacharie', 'zacharie'], ['Amélie', 'amelie'],
  ['Bruno', 'bruno'], ['Céline', 'celine'], ['Diego', 'diego'], ['Elena', 'elena'], ['François', 'francois'], ['Gaël', 'gael'], ['Hugo', 'hugo'], ['Inès', 'ines'],
] as const;
const LAST_NAMES = [
  'Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Dupont', 'Müller', 'García', 'Núñez', 'Østergaard', 'Nakamura', 'Schmidt', 'Rossi', 'Bernard', 'Petrov', 'Kowalski',
  'Johansson', 'Fernández', 'Lefèvre', 'Silva', 'Martin', 'Moreau', 'Novák', 'Horváth', 'Andersen', 'Costa', 'Weiß', 'Brontë', 'Côté', 'Gauß', 'Öztürk', 'Çelik',
  'Lambert', 'Fontaine', 'Rousseau', 'Girard', 'Mercier', 'Blanc', 'Guérin', 'Faure',
];
const DOMAINS = ['example.com', 'example.org', 'mail.example.net', 'corp.example', 'example.co.uk'];

/**
 * `rows` contacts with names people search for: 40 first and 40 last names (accents included),
 * so a first name matches one contact in 40 and a full name one in 1,600, and e-mail addresses
 * `first.last<i>@domain`, each unique. One second apart from 2025-01-01, like {@link seedContacts}.
 */
export async function seedNamedContacts(db: pg.Client, workspaceId: string, rows: number, idPrefix = 'con_S'): Promise<void> {
  await db.query(
    `insert into contacts (id, workspace_id, first_name, last_name, email, phone, status, custom_fields, created_at, updated_at)
     select $3 || lpad(i::text, 10, '0'), $1, ($4::text[])[1 + i % 40], ($6::text[])[1 + (i / 40) % 40],
            ($5::text[])[1 + i % 40] || '.' || lower(($7::text[])[1 + (i / 40) % 40]) || i || '@' || ($8::text[])[1 + i % 5],
            '+1650' || lpad((2000000 + i)::text, 7, '0'), 'active', '{}',
            timestamptz '2025-01-01' + i * interval '1 second', timestamptz '2025-01-01' + i * interval '1 second'
     from generate_series(1, $2::int) as i`,
    [workspaceId, rows, idPrefix, FIRST_NAMES.map((n) => n[0]), FIRST_NAMES.map((n) => n[1]), LAST_NAMES, LAST_NAMES.map(asciiOf), DOMAINS],
  );
}

/** A last name as an e-mail address would spell it. */
function asciiOf(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').replace(/ø/gi, 'o').replace(/ß/g, 'ss');
}
