import { Router, type Request } from 'express';
import { createContact } from '../../../shared/contracts/contacts.js';
import type { CustomField } from '../../../shared/contracts/custom-fields.js';
import { NotFoundError } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { sendPage } from '../../pages/session-routes.js';
import { parseWith } from '../../validation.js';
import { sessionOf } from '../console-session.js';
import { customFieldFormOf, customFieldLabelsOf, customFieldValuesOf, type CustomFieldForm } from '../custom-field-inputs.js';
import { afterRefusal, FORM_AGAIN_CODES, idempotencyKeyOfForm, newIdempotencyKey } from '../form-idempotency-key.js';
import { refusalMessage, refusedField } from '../form-refusal.js';
import { CONTACT_FIELD_LABELS, contactDetailsOf, type ContactDetails } from '../pages/contact-fields.js';
import { contactNewPage } from '../pages/contact-new-page.js';
import { workspacePath } from '../workspace-url.js';
import { requireRecordWrite } from '../require-record-write.js';
import { workspaceSchema } from '../workspace-schema.js';

const EMPTY: ContactDetails = { first_name: '', last_name: '', email: '', phone: '' };

/** The contact as POST /v1/contacts takes it: a blank last name or e-mail is none, and so is an empty custom field. */
function createInput(form: ContactDetails, fields: readonly CustomField[], custom: CustomFieldForm) {
  const values = customFieldValuesOf(fields, custom);
  return parseWith(createContact.input, {
    first_name: form.first_name,
    phone: form.phone,
    ...(form.last_name.trim() !== '' ? { last_name: form.last_name } : {}),
    ...(form.email.trim() !== '' ? { email: form.email } : {}),
    ...(Object.keys(values).length > 0 ? { custom_fields: values } : {}),
  });
}

/**
 * "New contact", with POST /v1/contacts' operation in the member's context: the worker records
 * the event (actor console_user) and makes the member its owner, as it does for REST.
 */
export function contactNewRoute(deps: GatewayDeps): Router {
  const router = Router();
  const fieldsOf = async (req: Request) => (await workspaceSchema(deps, req)).custom_fields.contact;

  router.get('/new', async (req, res) => {
    requireRecordWrite(req, 'contacts', 'add', () => new NotFoundError('page'));
    sendPage(res, contactNewPage({ session: sessionOf(req), form: EMPTY, fields: await fieldsOf(req), custom: {}, idempotencyKey: newIdempotencyKey() }));
  });

  router.post('/new', async (req, res) => {
    requireRecordWrite(req, 'contacts', 'add', () => new NotFoundError('page'));
    const form = contactDetailsOf(req);
    const fields = await fieldsOf(req);
    const custom = customFieldFormOf(req, fields);
    const idempotencyKey = idempotencyKeyOfForm(req);
    let id: string;
    try {
      id = (await callWorker(deps.bus, req, createContact, createInput(form, fields, custom), idempotencyKey === undefined ? {} : { idempotencyKey })).result.id;
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'phone_taken', ...FORM_AGAIN_CODES])) {
        const labels = { ...CONTACT_FIELD_LABELS, ...customFieldLabelsOf(fields) };
        const page = contactNewPage({
          session: sessionOf(req),
          form,
          fields,
          custom,
          ...afterRefusal(error, idempotencyKey, () => refusalMessage(error, labels)),
          errorField: refusedField(error, labels),
          existingId: error.details.existing_id,
        });
        return sendPage(res, page, HTTP_STATUS[error.code]);
      }
      throw error;
    }
    res.redirect(303, `${workspacePath(sessionOf(req), `/contacts/${encodeURIComponent(id)}`)}?notice=created`);
  });
  return router;
}
