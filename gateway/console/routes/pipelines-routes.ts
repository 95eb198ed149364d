import { Router, type Request, type Response } from 'express';
import { archiveStage, createPipeline, createStage, listPipelines, updatePipeline, updateStage, type Pipeline } from '../../../shared/contracts/pipelines.js';
import { NotFoundError, type CrmError } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { html } from '../../pages/html.js';
import { sendPage } from '../../pages/session-routes.js';
import { parseWith } from '../../validation.js';
import { sessionOf } from '../console-session.js';
import { pathParam, textField } from '../form-fields.js';
import { refusalMessage, refusedField } from '../form-refusal.js';
import { noticeFrom } from '../notice.js';
import { confirmPage } from '../pages/confirm-page.js';
import { NEW_PIPELINE_LABELS, newStageLabel, pipelinesPage, type NewPipelineForm, type PipelineRefusal } from '../pages/pipelines-page.js';
import { PIPELINE_NAME_LABEL, pipelineEditPage } from '../pages/pipeline-edit-page.js';
import { STAGE_NAME_LABEL, stageEditPage } from '../pages/stage-edit-page.js';
import { requireConfiguration } from '../require-configuration.js';
import { workspacePath } from '../workspace-url.js';
import { stageRefusalInConsole } from '../stage-refusal.js';

const NOTICES: Record<string, string> = {
  added: 'The stage was added.',
  archived: 'The stage was archived. Its deals stay in it until they are moved.',
  restored: 'The stage is active again, with the deals still in it.',
  renamed: 'The stage was renamed.',
  moved: 'The stage was moved.',
  created: 'The pipeline was added.',
  pipeline_renamed: 'The pipeline was renamed.',
  made_default: 'The pipeline is now the default: new deals go there when none is named.',
};

/** The textarea's stage names, each with its line (blank lines, e.g. a trailing line break, are no stage). */
function stageLines(text: string): { name: string; line: number }[] {
  return text
    .split(/\r?\n/)
    .map((name, index) => ({ name, line: index + 1 }))
    .filter((s) => s.name.trim() !== '');
}

/**
 * A refusal of the new pipeline, the field named by its label; a refused stage name (`stages.3`)
 * also by its line, which the API's index into the non-blank lines is not.
 */
function newPipelineRefusal(error: CrmError, lines: { line: number }[]): { error: string; field: string | undefined } {
  const field = refusedField(error, NEW_PIPELINE_LABELS);
  const param = error.details.param ?? '';
  const at = /^stages\.(\d+)$/.exec(param);
  const line = at ? lines[Number(at[1])]?.line : undefined;
  if (line !== undefined && error.message.startsWith(`${param}: `)) return { error: `${NEW_PIPELINE_LABELS.stages}, line ${line}: ${error.message.slice(param.length + 2)}`, field };
  return { error: refusalMessage(error, NEW_PIPELINE_LABELS), field };
}

/** A position as the move buttons send it (digits); anything else is passed on as typed, for the schema to refuse. */
function positionOf(text: string): number | string {
  return /^\d{1,6}$/.test(text) ? Number(text) : text;
}

/** Pipelines and their stages (administrators only), through the operations of /v1/pipelines. */
export function pipelinesRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.use(requireConfiguration);

  const pipelines = async (req: Request) => (await callWorker(deps.bus, req, listPipelines, {})).result.data;
  /** The listed pipeline a refusal is said at: for one the page does not list, nothing would be said, so a 404. */
  const listed = (list: Pipeline[], id: string): Pipeline => {
    const pipeline = list.find((p) => p.id === id);
    if (!pipeline) throw new NotFoundError('pipeline', id);
    return pipeline;
  };
  const showList = async (req: Request, res: Response, refusal?: PipelineRefusal & { status: number }, read?: Pipeline[]) => {
    const list = read ?? (await pipelines(req));
    if (refusal) listed(list, refusal.pipelineId);
    sendPage(res, pipelinesPage({ session: sessionOf(req), pipelines: list, notice: noticeFrom(req, NOTICES), ...(refusal ? { refusal } : {}) }), refusal?.status ?? 200);
  };
  const listPath = (req: Request) => workspacePath(sessionOf(req), '/pipelines');

  router.get('/', (req, res) => showList(req, res));

  router.post('/', async (req, res) => {
    const form: NewPipelineForm = { name: textField(req, 'name', 1000), stages: textField(req, 'stages', 50_000), is_default: textField(req, 'is_default', 10) === 'yes' };
    const lines = stageLines(form.stages);
    try {
      const stages = lines.map((s) => s.name);
      const input = parseWith(createPipeline.input, { name: form.name, ...(stages.length > 0 ? { stages } : {}), ...(form.is_default ? { is_default: true } : {}) });
      await callWorker(deps.bus, req, createPipeline, input);
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'conflict'])) {
        const newPipeline = { form, ...newPipelineRefusal(error, lines) };
        return sendPage(res, pipelinesPage({ session: sessionOf(req), pipelines: await pipelines(req), newPipeline }), HTTP_STATUS[error.code]);
      }
      throw error;
    }
    res.redirect(303, `${listPath(req)}?notice=created`);
  });

  router.post('/:pipelineId/stages', async (req, res) => {
    const pipelineId = pathParam(req, 'pipelineId');
    const name = textField(req, 'name', 1000);
    try {
      await callWorker(deps.bus, req, createStage, parseWith(createStage.input, { pipeline_id: pipelineId, name }));
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'conflict'])) {
        // The field as the page labels it at this pipeline (newStageLabel).
        const list = await pipelines(req);
        const labels = { name: newStageLabel(listed(list, pipelineId)) };
        return showList(req, res, { pipelineId, error: refusalMessage(error, labels), field: refusedField(error, labels), name, status: HTTP_STATUS[error.code] }, list);
      }
      throw error;
    }
    res.redirect(303, `${listPath(req)}?notice=added`);
  });

  router.get('/:pipelineId', async (req, res) => {
    const pipeline = listed(await pipelines(req), pathParam(req, 'pipelineId'));
    sendPage(res, pipelineEditPage({ session: sessionOf(req), pipeline }));
  });

  router.post('/:pipelineId', async (req, res) => {
    const id = pathParam(req, 'pipelineId');
    const name = textField(req, 'name', 1000);
    try {
      await callWorker(deps.bus, req, updatePipeline, parseWith(updatePipeline.input, { id, name }));
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'conflict'])) {
        const pipeline = listed(await pipelines(req), id);
        const labels = { name: PIPELINE_NAME_LABEL };
        const refusal = { name, error: refusalMessage(error, labels), field: refusedField(error, labels) };
        return sendPage(res, pipelineEditPage({ session: sessionOf(req), pipeline, refusal }), HTTP_STATUS[error.code]);
      }
      throw error;
    }
    res.redirect(303, `${listPath(req)}?notice=pipeline_renamed`);
  });

  // Making the default default again changes nothing: sent twice, it is the default once.
  router.post('/:pipelineId/default', async (req, res) => {
    await callWorker(deps.bus, req, updatePipeline, { id: pathParam(req, 'pipelineId'), is_default: true });
    res.redirect(303, `${listPath(req)}?notice=made_default`);
  });

  const stageOf = async (req: Request) => {
    const pipeline = (await pipelines(req)).find((p) => p.id === pathParam(req, 'pipelineId'));
    const stage = pipeline?.stages.find((s) => s.id === pathParam(req, 'stageId'));
    if (!pipeline || !stage) throw new NotFoundError('stage', pathParam(req, 'stageId'));
    return { pipeline, stage };
  };

  router.get('/:pipelineId/stages/:stageId', async (req, res) => {
    const { pipeline, stage } = await stageOf(req);
    sendPage(res, stageEditPage({ session: sessionOf(req), pipeline, stage }));
  });

  router.post('/:pipelineId/stages/:stageId', async (req, res) => {
    const name = textField(req, 'name', 1000);
    const ref = { pipeline_id: pathParam(req, 'pipelineId'), stage_id: pathParam(req, 'stageId') };
    try {
      await callWorker(deps.bus, req, updateStage, parseWith(updateStage.input, { ...ref, name }));
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'conflict'])) {
        const { pipeline, stage } = await stageOf(req);
        const labels = { name: STAGE_NAME_LABEL };
        const refusal = { name, error: stage.archived && error.code === 'conflict' ? stageRefusalInConsole(error, pipeline, stage.id) : refusalMessage(error, labels), field: refusedField(error, labels) };
        return sendPage(res, stageEditPage({ session: sessionOf(req), pipeline, stage, refusal }), HTTP_STATUS[error.code]);
      }
      throw error;
    }
    res.redirect(303, `${listPath(req)}?notice=renamed`);
  });

  // The buttons send the place to move to, not a direction: sent twice, the stage is moved once.
  router.post('/:pipelineId/stages/:stageId/position', async (req, res) => {
    const pipelineId = pathParam(req, 'pipelineId');
    try {
      const input = parseWith(updateStage.input, { pipeline_id: pipelineId, stage_id: pathParam(req, 'stageId'), position: positionOf(textField(req, 'position', 20)) });
      await callWorker(deps.bus, req, updateStage, input);
    } catch (error) {
      // A stage archived meanwhile, or a position that is none: said at its pipeline.
      if (crmErrorIn(error, ['validation_failed', 'conflict'])) {
        const list = await pipelines(req);
        const message = stageRefusalInConsole(error, list.find((p) => p.id === pipelineId), pathParam(req, 'stageId'));
        return showList(req, res, { pipelineId, error: message, name: '', status: HTTP_STATUS[error.code] }, list);
      }
      throw error;
    }
    res.redirect(303, `${listPath(req)}?notice=moved`);
  });

  router.get('/:pipelineId/stages/:stageId/archive', async (req, res) => {
    const session = sessionOf(req);
    const { pipeline, stage } = await stageOf(req);
    const list = listPath(req);
    sendPage(
      res,
      confirmPage({
        session,
        section: 'deals',
        title: `Archive the stage "${stage.name}" of ${pipeline.name}?`,
        details: stage.archived
          ? html`<p>This stage is already archived.</p>`
          : html`<p>Deals in ${stage.name} stay there and keep their history, but no deal can be moved into it, and the board shows it only while it holds deals. It can be restored from the pipelines page, its deals with it.</p>`,
        action: `${list}/${encodeURIComponent(pipeline.id)}/stages/${encodeURIComponent(stage.id)}/archive`,
        button: 'Archive stage',
        cancel: list,
      }),
    );
  });

  router.post('/:pipelineId/stages/:stageId/archive', async (req, res) => {
    const pipelineId = pathParam(req, 'pipelineId');
    try {
      await callWorker(deps.bus, req, archiveStage, { pipeline_id: pipelineId, stage_id: pathParam(req, 'stageId') });
    } catch (error) {
      // The last active stage: said at its pipeline.
      if (crmErrorIn(error, ['conflict'])) return showList(req, res, { pipelineId, error: error.message, name: '', status: HTTP_STATUS[error.code] });
      throw error;
    }
    res.redirect(303, `${listPath(req)}?notice=archived`);
  });

  // Restoring takes nothing away: no confirmation. Sent twice, the stage is restored once (an active one is left as it is).
  router.post('/:pipelineId/stages/:stageId/restore', async (req, res) => {
    const pipelineId = pathParam(req, 'pipelineId');
    try {
      await callWorker(deps.bus, req, updateStage, { pipeline_id: pipelineId, stage_id: pathParam(req, 'stageId'), archived: false });
    } catch (error) {
      // Its name taken by an active stage meanwhile, or a pipeline already at its most stages: said at its pipeline.
      if (crmErrorIn(error, ['conflict'])) {
        const list = await pipelines(req);
        const message = stageRefusalInConsole(error, list.find((p) => p.id === pipelineId), pathParam(req, 'stageId'));
        return showList(req, res, { pipelineId, error: message, name: '', status: HTTP_STATUS[error.code] }, list);
      }
      throw error;
    }
    res.redirect(303, `${listPath(req)}?notice=restored`);
  });

  return router;
}
