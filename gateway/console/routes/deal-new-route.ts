import { Router, type Request } from 'express';
import { createDeal } from '../../../shared/contracts/deals.js';
import type { Pipeline } from '../../../shared/contracts/pipelines.js';
import { NotFoundError } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { sendPage } from '../../pages/session-routes.js';
import { parseWith } from '../../validation.js';
import { minorUnitsOf } from '../amount-field.js';
import { sessionOf } from '../console-session.js';
import { textField } from '../form-fields.js';
import { afterRefusal, FORM_AGAIN_CODES, idempotencyKeyOfForm, newIdempotencyKey } from '../form-idempotency-key.js';
import { refusalMessage, refusedField } from '../form-refusal.js';
import { DEAL_NEW_LABELS, dealNewPage, type DealNewForm } from '../pages/deal-new-page.js';
import { workspacePath } from '../workspace-url.js';
import { workspaceSchema } from '../workspace-schema.js';
import { requireRecordWrite } from '../require-record-write.js';

/** The first active stage of the pipeline the Deals page showed (`?pipeline=`), else of the default one. */
function firstStageOf(pipelines: Pipeline[], wanted: unknown): string {
  const pipeline = pipelines.find((p) => p.id === wanted) ?? pipelines.find((p) => p.is_default) ?? pipelines[0];
  return pipeline?.stages.find((s) => !s.archived)?.id ?? '';
}

/** The deal as POST /v1/deals takes it: a blank amount and currency are none; the stage names its pipeline. */
function createInput(form: DealNewForm) {
  const amount = minorUnitsOf(form.amount, form.currency);
  return parseWith(createDeal.input, {
    name: form.name,
    ...(amount !== null ? { amount } : {}),
    ...(form.currency.trim() !== '' ? { currency: form.currency } : {}),
    ...(form.stage_id !== '' ? { stage_id: form.stage_id } : {}),
  });
}

/**
 * "New deal", with POST /v1/deals' operation in the member's context: the worker records the
 * event (actor console_user) and makes the member its owner, as it does for REST.
 */
export function dealNewRoute(deps: GatewayDeps): Router {
  const router = Router();
  const pipelinesOf = async (req: Request) => (await workspaceSchema(deps, req)).pipelines;

  router.get('/new', async (req, res) => {
    requireRecordWrite(req, 'deals', 'add', () => new NotFoundError('page'));
    const pipelines = await pipelinesOf(req);
    const form = { name: '', amount: '', currency: '', stage_id: firstStageOf(pipelines, req.query.pipeline) };
    sendPage(res, dealNewPage({ session: sessionOf(req), pipelines, form, idempotencyKey: newIdempotencyKey() }));
  });

  router.post('/new', async (req, res) => {
    requireRecordWrite(req, 'deals', 'add', () => new NotFoundError('page'));
    const form: DealNewForm = { name: textField(req, 'name', 1000), amount: textField(req, 'amount', 100), currency: textField(req, 'currency', 20), stage_id: textField(req, 'stage_id', 100) };
    const idempotencyKey = idempotencyKeyOfForm(req);
    let id: string;
    try {
      id = (await callWorker(deps.bus, req, createDeal, createInput(form), idempotencyKey === undefined ? {} : { idempotencyKey })).result.id;
    } catch (error) {
      // A stage archived or deleted since the form was read is refused beside the list.
      const refused = crmErrorIn(error, ['validation_failed', ...FORM_AGAIN_CODES]) || (crmErrorIn(error, ['not_found']) && ['stage_id', 'pipeline_id'].includes(error.details.param ?? ''));
      if (refused) {
        const page = dealNewPage({
          session: sessionOf(req),
          pipelines: await pipelinesOf(req),
          form,
          ...afterRefusal(error, idempotencyKey, () => refusalMessage(error, DEAL_NEW_LABELS)),
          errorField: refusedField(error, DEAL_NEW_LABELS),
        });
        return sendPage(res, page, HTTP_STATUS[error.code]);
      }
      throw error;
    }
    res.redirect(303, `${workspacePath(sessionOf(req), `/deals/${encodeURIComponent(id)}`)}?notice=created`);
  });
  return router;
}
