import { AppliedRange } from '../../../../shared/contracts/created-range.js';
import { createDeal, Deal, deleteDeal, getDeal, listDeals, updateDeal } from '../../../../shared/contracts/deals.js';
import { defineEndpoint } from '../../../api/endpoint.js';
import { listOf } from '../../../api/list-envelope.js';
import { CreateDealBody, DealIdParams, ListDealsQuery, UpdateDealBody } from './validators.js';

const tag = 'Deals';
const writeErrors = ['not_found', 'forbidden', 'idempotency_key_reused'] as const;

export const listDealsEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/deals',
  operationId: 'listDeals',
  summary: 'List deals',
  description:
    'Deals in creation order (created_at, then id; sort=newest_first reverses it). Filters combine with AND and travel in links.next; a filter naming a stage, pipeline, contact or member (owner_id) that does not exist in the workspace is a 404, and so is a stage name that the pipeline named by pipeline_id does not have. Days (YYYY-MM-DD) and created_within are read in the workspace time zone; applied_range says which instants the creation-date filters selected.',
  tag,
  op: listDeals,
  query: ListDealsQuery,
  response: listOf(Deal, 'DealList', { applied_range: AppliedRange }),
  status: 200,
  errors: ['invalid_cursor', 'not_found'],
});

export const createDealEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/deals',
  operationId: 'createDeal',
  summary: 'Create a deal',
  description: 'Without pipeline_id and stage_id the deal starts in the first stage of the default pipeline.',
  tag,
  op: createDeal,
  body: CreateDealBody,
  status: 201,
  errors: [...writeErrors],
  location: (deal) => `/v1/deals/${deal.id}`,
});

export const getDealEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/deals/{id}',
  operationId: 'getDeal',
  summary: 'Retrieve a deal',
  tag,
  op: getDeal,
  versioned: 'tagged',
  params: DealIdParams,
  status: 200,
  errors: ['not_found'],
});

export const updateDealEndpoint = defineEndpoint({
  method: 'patch',
  path: '/v1/deals/{id}',
  operationId: 'updateDeal',
  summary: 'Update a deal',
  description:
    'Only the fields given change. stage_id moves the deal between stages of its pipeline; a stage of another pipeline is a 400 unless pipeline_id moves the deal there too.',
  tag,
  op: updateDeal,
  versioned: 'tagged',
  params: DealIdParams,
  body: UpdateDealBody,
  status: 200,
  errors: [...writeErrors],
});

export const deleteDealEndpoint = defineEndpoint({
  method: 'delete',
  path: '/v1/deals/{id}',
  operationId: 'deleteDeal',
  summary: 'Delete a deal',
  description: 'Deletes the deal permanently.',
  tag,
  op: deleteDeal,
  versioned: 'removed',
  params: DealIdParams,
  status: 200,
  errors: ['not_found'],
});

export const dealEndpoints = [listDealsEndpoint, createDealEndpoint, getDealEndpoint, updateDealEndpoint, deleteDealEndpoint];
