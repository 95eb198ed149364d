import { z } from 'zod';
import { Contact, CreateContactInput, createContact, UpdateContactFields, updateContact } from '../../../../shared/contracts/contacts.js';
import { CreateDealInput, createDeal, Deal, UpdateDealFields, updateDeal } from '../../../../shared/contracts/deals.js';
import { CHANGES, CREATES, defineTool } from '../../tool.js';

/** The CRM tools that change data: listed only to connections that may write. */
export const createContactTool = defineTool({
  name: 'create_contact',
  title: 'Create a contact',
  description:
    'Creates a contact. first_name and phone are required; the phone is stored in E.164 and must be new in the workspace. custom_fields must match describe_schema.',
  scopes: ['contacts:write'],
  writes: true,
  annotations: CREATES,
  input: CreateContactInput.shape,
  output: Contact,
  run: async (args, call) => call.run(createContact, args),
});

export const updateContactTool = defineTool({
  name: 'update_contact',
  title: 'Update a contact',
  description: 'Changes the fields given of a contact (con_…); custom_fields merge key by key and null clears one.',
  scopes: ['contacts:write'],
  writes: true,
  annotations: CHANGES,
  input: { id: z.string().max(64).describe('con_…'), ...UpdateContactFields.shape },
  output: Contact,
  run: async (args, call) => call.run(updateContact, args),
});

export const createDealTool = defineTool({
  name: 'create_deal',
  title: 'Create a deal',
  description:
    'Creates a deal. Without pipeline_id and stage_id it starts in the first stage of the default pipeline; amount is in minor units (cents) with an ISO 4217 currency.',
  scopes: ['deals:write'],
  writes: true,
  annotations: CREATES,
  input: CreateDealInput.shape,
  output: Deal,
  run: async (args, call) => call.run(createDeal, args),
});

export const updateDealTool = defineTool({
  name: 'update_deal',
  title: 'Update or move a deal',
  description:
    "Changes the fields given of a deal (deal_…). stage_id moves it to another stage of its pipeline; to move it to another pipeline give pipeline_id too.",
  scopes: ['deals:write'],
  writes: true,
  annotations: CHANGES,
  input: { id: z.string().max(64).describe('deal_…'), ...UpdateDealFields.shape },
  output: Deal,
  run: async (args, call) => call.run(updateDeal, args),
});
