import { Router, type Request } from 'express';
import { countDeals, listDeals } from '../../../shared/contracts/deals.js';
import type { Pipeline, Stage } from '../../../shared/contracts/pipelines.js';
import { NotFoundError } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { sendPage } from '../../pages/session-routes.js';
import { sessionOf } from '../console-session.js';
import { customFieldLabels } from '../custom-field-labels.js';
import { workspaceSchema } from '../workspace-schema.js';
import { ownerNames } from '../owner-names.js';
import { dealsPage, type StageColumn } from '../pages/deals-page.js';

const PER_STAGE = 10;
const PER_PAGE = 50;

/** Deals by stage of a pipeline (the default unless one is chosen), read with GET /v1/deals' operation. */
export function dealsRoute(deps: GatewayDeps): Router {
  const router = Router();

  const stageColumn = async (req: Request, pipelineId: string, stage: Stage, limit: number, cursor?: string): Promise<StageColumn> => {
    const { result } = await callWorker(deps.bus, req, listDeals, { pipeline_id: pipelineId, stage: stage.id, limit, ...(cursor ? { cursor } : {}) });
    return { stage, deals: result.data, nextCursor: result.next_cursor };
  };

  /**
   * Every stage's column, read only where deals are: one count says which stages hold any. A
   * pipeline keeps each stage it ever archived, and a read per stage made an empty board of a
   * pipeline with hundreds of them ask the worker hundreds of times, slower with each archive.
   */
  const boardColumns = async (req: Request, pipeline: Pipeline): Promise<StageColumn[]> => {
    const { result: totals } = await callWorker(deps.bus, req, countDeals, { pipeline_id: pipeline.id });
    const holding = new Set(totals.by_stage.filter((s) => s.count > 0).map((s) => s.stage_id));
    return Promise.all(
      pipeline.stages.map((s) => (holding.has(s.id) ? stageColumn(req, pipeline.id, s, PER_STAGE) : { stage: s, deals: [], nextCursor: null })),
    );
  };

  router.get('/', async (req, res) => {
    const session = sessionOf(req);
    // The pipelines and the field labels come from the one schema read of this request.
    const [{ pipelines }, ownerName, fieldLabel] = await Promise.all([
      workspaceSchema(deps, req),
      ownerNames(deps, req, session),
      customFieldLabels(deps, req, 'deal'),
    ]);
    const wanted = typeof req.query.pipeline === 'string' ? req.query.pipeline : '';
    const pipeline = pipelines.find((p) => p.id === wanted) ?? pipelines.find((p) => p.is_default) ?? pipelines[0] ?? null;
    if (wanted !== '' && pipeline?.id !== wanted) throw new NotFoundError('pipeline', wanted);
    const stages = pipeline?.stages ?? [];
    const stageId = typeof req.query.stage === 'string' ? req.query.stage : '';
    const cursor = typeof req.query.cursor === 'string' && req.query.cursor !== '' ? req.query.cursor : undefined;

    if (pipeline && stageId !== '') {
      const stage = stages.find((s) => s.id === stageId);
      if (!stage) throw new NotFoundError('stage', stageId);
      const col = await stageColumn(req, pipeline.id, stage, PER_PAGE, cursor);
      return sendPage(res, dealsPage({ session, pipelines, pipeline, columns: [col], single: { stage, onLaterPage: cursor !== undefined }, ownerName, fieldLabel }));
    }
    const all = pipeline ? await boardColumns(req, pipeline) : [];
    // Deals stay in a stage when it is archived: its column follows the active ones while it holds any, so they do not vanish from the board.
    const columns = all.filter((c) => !c.stage.archived || c.deals.length > 0);
    sendPage(res, dealsPage({ session, pipelines, pipeline, columns, single: null, ownerName, fieldLabel }));
  });

  return router;
}
