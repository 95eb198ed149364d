import { listContacts } from '../../../shared/contracts/contacts.js';
import { describeSchema } from '../../../shared/contracts/schema.js';
import { ValidationError } from '../../../shared/errors.js';
import type { Completer } from '../mcp-features.js';
import { pipelineNamed } from './prompt-argument-checks.js';

/** Completers whose values come from the workspace's design or data. */
export const pipelineNames: Completer = async (_value, call) => (await call.run(describeSchema, {})).pipelines.map((p) => p.name);

/**
 * Active stage names of the pipeline the prompt will review: the one already chosen (by name or
 * id), else the default one; none while the chosen pipeline is not one the workspace has.
 */
export const stageNames: Completer = async (_value, call, context) => {
  const { pipelines } = await call.run(describeSchema, {});
  if (pipelines.length === 0) return [];
  try {
    return pipelineNamed(pipelines, context.pipeline).stages.filter((s) => !s.archived).map((s) => s.name);
  } catch (error) {
    if (error instanceof ValidationError) return [];
    throw error;
  }
};

export const pipelineIds: Completer = async (_value, call) => (await call.run(describeSchema, {})).pipelines.map((p) => p.id);

/** Custom field keys, of the object type already chosen when there is one. */
export const customFieldKeys: Completer = async (_value, call, context) => {
  const { custom_fields: fields } = await call.run(describeSchema, {});
  const chosen = context.object_type;
  const types: ('contact' | 'deal')[] = chosen === 'contact' || chosen === 'deal' ? [chosen] : ['contact', 'deal'];
  return types.flatMap((t) => fields[t].map((f) => f.key));
};

/** The options of the select field already chosen. */
export const selectOptions: Completer = async (_value, call, context) => {
  const { custom_fields: fields } = await call.run(describeSchema, {});
  const field = [...fields.contact, ...fields.deal].find((f) => f.key === context.field);
  return field?.options ?? [];
};

/**
 * Contacts found by the contact search as typed, one page: "First Last", or the e-mail or phone
 * when that is what was typed (or the contact has no name). The search matches e-mails and
 * phones too, so its finds are not filtered again by the name, which dropped every one of them.
 */
export const contactNames: Completer = async (value, call) => {
  const typed = value.trim();
  if (typed === '') return { found: [], more: false };
  const page = await call.run(listContacts, { q: typed.slice(0, 100), limit: 100 });
  const byEmail = typed.includes('@');
  const byPhone = /^[\d\s()+.-]+$/.test(typed);
  const found = page.data.map((c) => {
    const name = [c.first_name, c.last_name].filter(Boolean).join(' ');
    if (byEmail && c.email) return c.email;
    if (byPhone && c.phone) return c.phone;
    return name || c.email || c.phone;
  });
  return { found, more: page.next_cursor !== null };
};
