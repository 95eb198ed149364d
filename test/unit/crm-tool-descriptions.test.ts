import t from 'tap';
import { CRM_TOOLS } from '../../gateway/mcp/tools/crm/index.js';

/** What tools/list shows a model for one argument. */
function argumentDescription(toolName: string, argument: string): string {
  const tool = CRM_TOOLS.find((x) => x.name === toolName)!;
  const properties = tool.inputJsonSchema.properties as Record<string, { description?: string }>;
  return properties[argument]?.description ?? '';
}

t.test('find_deals and count_deals say how pipeline takes a name', async (t) => {
  for (const tool of ['find_deals', 'count_deals']) {
    const description = argumentDescription(tool, 'pipeline');
    // "for tools that name things" was a note to the code's readers, shown to every model.
    t.notMatch(description, /for tools/, `${tool}: ${description}`);
    t.match(description, /case, extra spaces and characters that show as nothing do not matter/, `${tool}: a name as the user says it`);
  }
});

t.test("recent_changes' object_id names every kind of id it takes", async (t) => {
  // A note's changes are filed under its own id: a model with a note_… id was told it takes only others.
  t.match(argumentDescription('recent_changes', 'object_id'), /note_…/);
});

t.test("recent_changes' since tells an agent polling for new changes to overlap, not to pass the newest at", async (t) => {
  // A change's at is taken before it commits: one committed late (an import) can be older
  // than the newest seen, and a poll strictly after that newest at never lists it.
  const description = argumentDescription('recent_changes', 'since');
  t.notMatch(description, /newest change's at gives only newer ones/, description);
  t.match(description, /at least 30 seconds before the newest change's at/, description);
  t.match(description, /skip the change ids you already have/, description);
});
