/**
 * `npm run bench -- --agents`: a scripted agent evaluation, no model needed. Twenty tasks
 * people give an agent, each written as the tool calls a careful agent makes on the CRM
 * server (through the MCP SDK's client), each with the most calls it may take. A task
 * passes when its answer is right within that budget. It shows the tool surface answers
 * natural questions directly: full names, national phones, "last week" in the workspace's
 * time zone, deals with their stage and contact names, notes, moves by stage name, and a
 * guessed parameter that is corrected by the error's suggestion.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { addDays, isoWeekday, localDateOf, startOfDay } from '../shared/time/zoned-day.js';
import { startBenchStack } from './bench-stack.js';
import { runCrmJson } from './processes.js';

type Structured = Record<string, unknown>;
interface ToolAnswer {
  isError: boolean;
  data: Structured;
}

/** The agent's side: every call counted. */
class Agent {
  calls = 0;
  constructor(private readonly client: Client) {}
  async call(name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
    this.calls++;
    const result = (await this.client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Structured };
    return { isError: result.isError === true, data: result.structuredContent ?? {} };
  }
}

interface Task {
  ask: string;
  budget: number;
  run(agent: Agent): Promise<boolean>;
}

type ContactRow = { id: string; first_name: string; last_name: string | null };
type DealRow = { id: string; name: string; stage_name?: string; contact?: { name?: string } | null };
const contactsOf = (a: ToolAnswer) => (a.data.contacts ?? []) as ContactRow[];
const dealsOf = (a: ToolAnswer) => (a.data.deals ?? []) as DealRow[];
const fullName = (c: ContactRow) => [c.first_name, c.last_name].filter(Boolean).join(' ');

const TIME_ZONE = 'America/New_York';

const print = (line: string) => process.stdout.write(`${line}\n`);

export async function runAgentEvaluation(): Promise<boolean> {
  const stack = await startBenchStack();
  try {
    const { token } = await runCrmJson<{ token: string }>(['tokens', 'create', '--workspace', stack.workspaceId, '--scopes', 'contacts:write,deals:write,events:read,schema:write', '--name', 'agent evaluation'], stack.env);
    const rest = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${stack.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    };

    // The workspace: New York time; contacts this week, last week and earlier; deals in stages.
    await rest('PATCH', '/v1/workspace', { time_zone: TIME_ZONE });
    const people = [
      ['Ada', 'Lovelace', 'ada.lovelace@analytical.test', '(212) 555-0101'],
      ['Grace', 'Hopper', 'grace@navy.test', '(212) 555-0102'],
      ['Alan', 'Turing', 'alan@bletchley.test', '(212) 555-0103'],
      ['Zoë', 'Núñez', 'zoe@example.test', '(212) 555-0104'],
      ['Katherine', 'Johnson', 'katherine@nasa.test', '(212) 555-0105'],
      ['Edsger', 'Dijkstra', 'edsger@eindhoven.test', '(212) 555-0106'],
    ] as const;
    const ids: Record<string, string> = {};
    for (const [first, last, email, phone] of people) ids[first] = String((await rest('POST', '/v1/contacts', { first_name: first, last_name: last, email, phone })).id);
    // Last week in New York: Monday of last week, noon; three contacts there, two well before.
    const localToday = localDateOf(new Date(), TIME_ZONE);
    const today = startOfDay(localToday, TIME_ZONE);
    const lastMonday = startOfDay(addDays(localToday, 1 - isoWeekday(localToday) - 7), TIME_ZONE);
    const db = new pg.Client({ connectionString: stack.dbUrl });
    await db.connect();
    const place = (name: string, at: Date) => db.query('update contacts set created_at = $1 where id = $2', [at, ids[name]]);
    await place('Grace', new Date(lastMonday.getTime() + 12 * 3600_000));
    await place('Alan', new Date(lastMonday.getTime() + 3 * 86_400_000));
    await place('Zoë', new Date(lastMonday.getTime() + 6 * 86_400_000 + 23 * 3600_000));
    await place('Katherine', new Date(lastMonday.getTime() - 40 * 86_400_000));
    await place('Edsger', new Date(lastMonday.getTime() - 1000));
    await db.end();
    for (const [name, stage, amount, contact] of [
      ['Engine order', 'Negotiation', 250_000, 'Ada'],
      ['Compiler licence', 'Negotiation', 90_000, 'Grace'],
      ['Enigma audit', 'Qualified', 40_000, 'Alan'],
      ['Orbit study', 'Lead', 15_000, 'Katherine'],
    ] as const) {
      await rest('POST', '/v1/deals', { name, stage, amount, currency: 'USD', contact_id: ids[contact] });
    }

    const client = new Client({ name: 'agent-evaluation', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp/crm`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const findAda = async (a: Agent) => contactsOf(await a.call('find_contacts', { query: 'Ada Lovelace' }))[0]?.id;

    const tasks: Task[] = [
      { ask: 'How many contacts were created last week?', budget: 1, run: async (a) => (await a.call('count_contacts', { created_within: 'last_week' })).data.count === 3 },
      { ask: 'Find Ada Lovelace.', budget: 1, run: async (a) => contactsOf(await a.call('find_contacts', { query: 'Ada Lovelace' })).map(fullName).join() === 'Ada Lovelace' },
      { ask: 'Who is lovelace?', budget: 1, run: async (a) => contactsOf(await a.call('find_contacts', { query: 'lovelace' }))[0]?.id === ids.Ada },
      { ask: 'Who has the e-mail ada.lovelace@analytical.test?', budget: 1, run: async (a) => contactsOf(await a.call('find_contacts', { email: 'Ada.Lovelace@analytical.test' }))[0]?.id === ids.Ada },
      { ask: 'Who called from (212) 555-0102?', budget: 1, run: async (a) => contactsOf(await a.call('find_contacts', { phone: '(212) 555-0102' }))[0]?.id === ids.Grace },
      { ask: 'Find Zoe Nunez (typed without accents).', budget: 1, run: async (a) => contactsOf(await a.call('find_contacts', { query: 'zoe nunez' }))[0]?.id === ids['Zoë'] },
      {
        ask: 'List the deals in Negotiation with their contacts.',
        budget: 1,
        run: async (a) => {
          const deals = dealsOf(await a.call('find_deals', { stage: 'Negotiation' }));
          return deals.length === 2 && deals.every((d) => d.stage_name === 'Negotiation' && typeof d.contact?.name === 'string');
        },
      },
      {
        ask: 'What is in the pipeline, per stage?',
        budget: 1,
        run: async (a) => {
          const totals = ((await a.call('count_deals')).data.by_stage ?? []) as { stage_name: string; count: number; amounts: { currency: string; amount: number }[] }[];
          const negotiation = totals.find((s) => s.stage_name === 'Negotiation');
          return negotiation?.count === 2 && negotiation.amounts[0]?.amount === 340_000;
        },
      },
      {
        ask: 'Add a note to Ada Lovelace: "Call back on Tuesday".',
        budget: 2,
        run: async (a) => !(await a.call('add_note', { contact_id: await findAda(a), body: 'Call back on Tuesday' })).isError,
      },
      {
        ask: 'Move the "Engine order" deal to Won.',
        budget: 2,
        run: async (a) => {
          const deal = dealsOf(await a.call('find_deals', { query: 'engine order' }))[0];
          return (await a.call('update_deal', { id: deal?.id, stage: 'Won' })).data.stage_name === 'Won';
        },
      },
      {
        ask: "What is today's date, and in which time zone does the workspace count days?",
        budget: 1,
        run: async (a) => {
          const who = (await a.call('whoami')).data;
          return who.time_zone === TIME_ZONE && Math.abs(Date.parse(String(who.now)) - Date.now()) < 60_000;
        },
      },
      { ask: 'How many contacts were added today?', budget: 1, run: async (a) => (await a.call('count_contacts', { created_within: 'today' })).data.count === 1 },
      {
        ask: 'Show me the Compiler licence deal: stage, pipeline and contact.',
        budget: 1,
        run: async (a) => {
          const deal = dealsOf(await a.call('find_deals', { query: 'compiler' }))[0] as (DealRow & { pipeline_name?: string }) | undefined;
          return deal?.stage_name === 'Negotiation' && typeof deal.pipeline_name === 'string' && deal.contact?.name === 'Grace Hopper';
        },
      },
      {
        ask: 'Create Charles Babbage, +44 20 7946 0958 (the connection dropped: try again safely).',
        budget: 2,
        run: async (a) => {
          const args = { first_name: 'Charles', last_name: 'Babbage', phone: '+44 20 7946 0958', idempotency_key: 'babbage-1' };
          const first = await a.call('create_contact', args);
          const again = await a.call('create_contact', args);
          return !first.isError && again.data.id === first.data.id;
        },
      },
      {
        ask: 'What notes do we have on Ada Lovelace?',
        budget: 2,
        run: async (a) => ((await a.call('list_notes', { contact_id: await findAda(a) })).data.notes as { body: string }[] | undefined)?.[0]?.body === 'Call back on Tuesday',
      },
      {
        ask: 'What changed today, and by whom?',
        budget: 1,
        run: async (a) => {
          const changes = ((await a.call('recent_changes', { since: today.toISOString() })).data.changes ?? []) as { by: { name: string } }[];
          return changes.length > 0 && changes.every((c) => typeof c.by.name === 'string');
        },
      },
      { ask: 'How many deals in Negotiation were created this month?', budget: 1, run: async (a) => (await a.call('count_deals', { stage: 'Negotiation', created_within: 'this_month' })).data.count === 1 },
      {
        ask: 'Who are the three newest contacts?',
        budget: 1,
        run: async (a) => contactsOf(await a.call('find_contacts', { sort: 'newest_first', limit: 3 }))[0]?.first_name === 'Charles',
      },
      {
        ask: 'Open a deal "Analytical engine" for Ada Lovelace in Qualified.',
        budget: 2,
        run: async (a) => {
          const deal = await a.call('create_deal', { name: 'Analytical engine', contact_id: await findAda(a), stage: 'Qualified' });
          return deal.data.stage_name === 'Qualified' && (deal.data.contact as { name?: string } | null)?.name === 'Ada Lovelace';
        },
      },
      {
        ask: 'Find Grace (guessing the parameter "name", then following the error\'s suggestion).',
        budget: 2,
        run: async (a) => {
          const guess = await a.call('find_contacts', { name: 'Grace' });
          const suggested = /did you mean `(\w+)`/.exec(String(guess.data.message))?.[1];
          return guess.isError && suggested === 'query' && contactsOf(await a.call('find_contacts', { [suggested]: 'Grace' }))[0]?.id === ids.Grace;
        },
      },
    ];

    let passed = 0;
    print(`\nAgent evaluation: ${tasks.length} tasks on /mcp/crm (workspace time zone ${TIME_ZONE})\n`);
    print(`${'task'.padEnd(92)} calls  result`);
    for (const task of tasks) {
      const agent = new Agent(client);
      let ok = false;
      let why = '';
      try {
        ok = await task.run(agent);
      } catch (error) {
        why = ` (${error instanceof Error ? error.message : String(error)})`;
      }
      const within = agent.calls <= task.budget;
      if (ok && within) passed++;
      print(`${task.ask.padEnd(92)} ${`${agent.calls}/${task.budget}`.padEnd(6)} ${ok && within ? 'pass' : `FAIL${within ? '' : ' (over budget)'}${why}`}`);
    }
    print(`\n${passed}/${tasks.length} tasks passed within their call budgets`);
    await client.close();
    return passed === tasks.length;
  } finally {
    await stack.stop();
  }
}
