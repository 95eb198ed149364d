import { z } from 'zod';
import { Contact, CreateContactInput, createContact, UpdateContactFields, updateContact } from '../../../../shared/contracts/contacts.js';
import { CreateDealInput, createDeal, UpdateDealFields, updateDeal } from '../../../../shared/contracts/deals.js';
import { defineTool } from '../../tool.js';
import { idArgument } from '../id-argument.js';
import { dealForAgents, DealForAgents } from './deal-for-agents.js';

/** The CRM tools that change data: listed only to connections that may write. */
/**
 * A second contact of someone who exists is a classic slip of an agent that did not look first:
 * create_contact refuses an e-mail address the workspace has (REST does not: addresses are not
 * unique), unless the call says a separate contact is meant.
 */
const AllowDuplicateEmail = z
  .boolean()
  .optional()
  .describe(
    'true only when the user wants a separate contact although another contact already has this email; otherwise leave it out, and an email in use is refused with the existing contact to read or update instead',
  );

export const createContactTool = defineTool({
  name: 'create_contact',
  title: 'Create a contact',
  description:
    'Creates a contact. first_name and phone are required; the phone is stored in E.164 and must be new in the workspace. An email another contact already has is refused too (case ignored), naming that contact: read or update it rather than making a second one, unless the user wants a separate contact (allow_duplicate_email: true). custom_fields must match describe_schema. Give idempotency_key to make a retry safe.',
  op: createContact,
  input: { ...CreateContactInput.shape, allow_duplicate_email: AllowDuplicateEmail },
  opInput: ({ allow_duplicate_email: allowed, ...contact }) => (allowed === true || contact.email == null ? contact : { ...contact, unique_email: true as const }),
  output: Contact,
});

export const updateContactTool = defineTool({
  name: 'update_contact',
  title: 'Update a contact',
  description:
    "Changes only the fields given of a contact (con_…); the others stay as they are. custom_fields merge key by key and null clears one. If some time has passed since you read the contact, pass its updated_at as unchanged_since: the change is then refused, not applied, if someone changed the contact meanwhile. To write a note about the contact use add_note.",
  op: updateContact,
  input: { id: idArgument('contact'), ...UpdateContactFields.shape },
  identifiedBy: ['id'],
  unchangedSince: 'contact',
  output: Contact,
});

export const createDealTool = defineTool({
  name: 'create_deal',
  title: 'Create a deal',
  description:
    'Creates a deal. Place it with stage (a stage name such as "Negotiation") or stage_id, and pipeline_id for another pipeline than the default; with neither it starts in the first stage of the default pipeline. amount is in minor units (cents) with an ISO 4217 currency. Give idempotency_key to make a retry safe.',
  op: createDeal,
  input: CreateDealInput.shape,
  output: DealForAgents,
  result: (deal, _server, call) => dealForAgents(deal, call),
});

export const updateDealTool = defineTool({
  name: 'update_deal',
  title: 'Update or move a deal',
  description:
    "Changes only the fields given of a deal (deal_…); the others stay as they are. stage (a stage name, e.g. \"Won\") or stage_id moves it to another stage of its pipeline; to move it to another pipeline give pipeline_id too. If some time has passed since you read the deal, pass its updated_at as unchanged_since: the change is then refused, not applied, if someone changed the deal meanwhile.",
  op: updateDeal,
  input: { id: idArgument('deal'), ...UpdateDealFields.shape },
  identifiedBy: ['id'],
  unchangedSince: 'deal',
  output: DealForAgents,
  result: (deal, _server, call) => dealForAgents(deal, call),
});
