import { Router, type Request } from 'express';
import type { CustomField } from '../../../shared/contracts/custom-fields.js';
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
import { may } from '../console-layout.js';
import { sessionOf } from '../console-session.js';
import { chosenContactId, presetContact, unknownContactMessage } from '../deal-contact-choice.js';
import { customFieldFormOf, customFieldLabelsOf, customFieldValuesOf, type CustomFieldForm } from '../custom-field-inputs.js';
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

/** The deal as POST /v1/deals takes it: a blank amount and currency are none, and so is an empty custom field; the stage names its pipeline. */
function createInput(form: DealNewForm, contactId: string | undefined, fields: readonly CustomField[], custom: CustomFieldForm) {
  const amount = minorUnitsOf(form.amount, form.currency);
  const values = customFieldValuesOf(fields, custom);
  return parseWith(createDeal.input, {
    name: form.name,
    ...(amount !== null ? { amount } : {}),
    ...(form.currency.trim() !== '' ? { currency: form.currency } : {}),
    ...(form.stage_id !== '' ? { stage_id: form.stage_id } : {}),
    ...(contactId !== undefined ? { contact_id: contactId } : {}),
    ...(Object.keys(values).length > 0 ? { custom_fields: values } : {}),
  });
}

/**
 * "New deal", with POST /v1/deals' operation in the member's context: the worker records the
 * event (actor console_user) and makes the member its owner, as it does for REST.
 */
export function dealNewRoute(deps: GatewayDeps): Router {
  const router = Router();
  const pipelinesOf = async (req: Request) => (await workspaceSchema(deps, req)).pipelines;
  const fieldsOf = async (req: Request) => (await workspaceSchema(deps, req)).custom_fields.deal;

  router.get('/new', async (req, res) => {
    requireRecordWrite(req, 'deals', 'add', () => new NotFoundError('page'));
    const session = sessionOf(req);
    const [pipelines, fields, contact] = await Promise.all([pipelinesOf(req), fieldsOf(req), presetContact(deps, req, req.query.contact)]);
    const form = { name: '', amount: '', currency: '', stage_id: firstStageOf(pipelines, req.query.pipeline), contact: contact?.id ?? '' };
    const page = dealNewPage({ session, pipelines, form, fields, custom: {}, idempotencyKey: newIdempotencyKey(), contactChoice: may(session, 'contacts:read'), presetContactName: contact?.name });
    sendPage(res, page);
  });

  router.post('/new', async (req, res) => {
    requireRecordWrite(req, 'deals', 'add', () => new NotFoundError('page'));
    const form: DealNewForm = { name: textField(req, 'name', 1000), amount: textField(req, 'amount', 100), currency: textField(req, 'currency', 20), stage_id: textField(req, 'stage_id', 100), contact: textField(req, 'contact', 300) };
    const fields = await fieldsOf(req);
    const custom = customFieldFormOf(req, fields);
    const idempotencyKey = idempotencyKeyOfForm(req);
    let id: string;
    try {
      const input = createInput(form, await chosenContactId(deps, req, form.contact), fields, custom);
      id = (await callWorker(deps.bus, req, createDeal, input, idempotencyKey === undefined ? {} : { idempotencyKey })).result.id;
    } catch (error) {
      // A stage archived or deleted since the form was read is refused beside the list, a contact the member may not see beside its field.
      const refused = crmErrorIn(error, ['validation_failed', ...FORM_AGAIN_CODES]) || (crmErrorIn(error, ['not_found']) && ['stage_id', 'pipeline_id', 'contact_id'].includes(error.details.param ?? ''));
      if (refused) {
        const labels = { ...DEAL_NEW_LABELS, ...customFieldLabelsOf(fields) };
        const unknownContact = error.code === 'not_found' && error.details.param === 'contact_id';
        const session = sessionOf(req);
        const page = dealNewPage({
          session,
          pipelines: await pipelinesOf(req),
          form,
          fields,
          custom,
          contactChoice: may(session, 'contacts:read'),
          ...afterRefusal(error, idempotencyKey, () => (unknownContact ? unknownContactMessage(form.contact) : refusalMessage(error, labels))),
          errorField: refusedField(error, labels),
        });
        return sendPage(res, page, HTTP_STATUS[error.code]);
      }
      throw error;
    }
    res.redirect(303, `${workspacePath(sessionOf(req), `/deals/${encodeURIComponent(id)}`)}?notice=created`);
  });
  return router;
}
