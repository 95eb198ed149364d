import type { Request } from 'express';
import type { GatewayDeps } from '../deps.js';
import { may } from './console-layout.js';
import type { ConsoleSession } from './console-session.js';
import { ownerNames } from './owner-names.js';
import { workspaceSchema } from './workspace-schema.js';

/** Names for the ids a record holds (owner, pipeline, stage), so a history reads "Won", not "stg_…". */
export interface RecordValueNames {
  ownerName: (ownerId: string | null) => string;
  /** The pipeline's or stage's name; the id itself when the member may not read the schema or it is gone. */
  pipelineName: (pipelineId: string) => string;
  stageName: (stageId: string) => string;
}

export async function recordValueNames(deps: GatewayDeps, req: Request, session: ConsoleSession): Promise<RecordValueNames> {
  const [ownerName, pipelines] = await Promise.all([
    ownerNames(deps, req, session),
    may(session, 'schema:read') ? workspaceSchema(deps, req).then((schema) => schema.pipelines) : [],
  ]);
  const pipelineNames = new Map(pipelines.map((p) => [p.id, p.name]));
  const stageNames = new Map(pipelines.flatMap((p) => p.stages.map((s) => [s.id, s.name] as const)));
  return {
    ownerName,
    pipelineName: (id) => pipelineNames.get(id) ?? id,
    stageName: (id) => stageNames.get(id) ?? id,
  };
}
