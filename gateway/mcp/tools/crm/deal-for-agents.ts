import { z } from 'zod';
import { Deal, DealContactSummary, describeDealReferences } from '../../../../shared/contracts/deals.js';
import { userWritten } from '../../../../shared/contracts/common.js';
import type { ToolCall } from '../../tool.js';

/** A deal as the tools give it: with the names an agent would otherwise need a call per deal to find. */
export const DealForAgents = z.object({
  ...Deal.shape,
  stage_name: z.string().describe(userWritten("The stage's name")),
  pipeline_name: z.string().describe(userWritten("The pipeline's name")),
  contact: DealContactSummary.nullable().describe("The deal's contact; null when there is none or this connection may not read it"),
});
export type DealForAgents = z.infer<typeof DealForAgents>;

/** Names the deals' stages, pipelines and contacts with one bus call for the whole set. */
export async function dealsForAgents(deals: readonly Deal[], call: ToolCall): Promise<DealForAgents[]> {
  if (deals.length === 0) return [];
  const refs = await call.run(describeDealReferences, {
    stage_ids: deals.map((d) => d.stage_id),
    contact_ids: deals.flatMap((d) => (d.contact_id ? [d.contact_id] : [])),
  });
  const stages = new Map(refs.stages.map((s) => [s.id, s]));
  const contacts = new Map(refs.contacts.map((c) => [c.id, c]));
  return deals.map((d) => ({
    ...d,
    stage_name: stages.get(d.stage_id)?.name ?? '',
    pipeline_name: stages.get(d.stage_id)?.pipeline_name ?? '',
    contact: d.contact_id ? (contacts.get(d.contact_id) ?? null) : null,
  }));
}

export async function dealForAgents(deal: Deal, call: ToolCall): Promise<DealForAgents> {
  return (await dealsForAgents([deal], call))[0]!;
}
