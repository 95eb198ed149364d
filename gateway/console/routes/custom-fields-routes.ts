import { Router, type Request, type Response } from 'express';
import { archiveCustomField, createCustomField, getCustomField, listCustomFields, updateCustomField } from '../../../shared/contracts/custom-fields.js';
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
import { customFieldEditPage, FIELD_CHANGE_LABELS, type CustomFieldChangeForm } from '../pages/custom-field-edit-page.js';
import { customFieldsPage, type CustomFieldForm } from '../pages/custom-fields-page.js';
import { requireConfiguration } from '../require-configuration.js';
import { workspacePath } from '../workspace-url.js';

/** The create form's fields as the page labels them, for its refusals. */
const LABELS = { object_type: 'Kind of record', key: 'Key', label: 'Label', type: 'Type', options: 'Options', required: 'Required' };

const NOTICES: Record<string, string> = {
  added: 'The field was added.',
  archived: 'The field was archived. Records keep their values; they are no longer shown or asked for.',
  restored: 'The field was restored.',
  changed: 'The field was changed.',
};

function fieldForm(req: Request): CustomFieldForm {
  return {
    object_type: textField(req, 'object_type', 20),
    key: textField(req, 'key', 200),
    label: textField(req, 'label', 1000),
    type: textField(req, 'type', 20),
    options: textField(req, 'options', 50_000),
    required: textField(req, 'required', 10) === 'yes',
  };
}

/** The textarea's lines as options: blank lines (a trailing line break) are no option. */
function optionsOf(text: string): string[] | undefined {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.length > 0 ? lines : undefined;
}

/** Custom fields of contacts and deals (administrators only), through the operations of /v1/custom-fields: list, add, change, archive, restore. */
export function customFieldsRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.use(requireConfiguration);
  const listPath = (req: Request) => workspacePath(sessionOf(req), '/fields');

  const showList = async (req: Request, res: Response, refused: { error: string; errorField: string | undefined; form: CustomFieldForm; status: number } | null = null) => {
    // A refused form shows the first page, where it was sent from.
    const cursor = typeof req.query.cursor === 'string' && req.query.cursor !== '' && refused === null ? req.query.cursor : undefined;
    const { result } = await callWorker(deps.bus, req, listCustomFields, { limit: 100, include_archived: true, ...(cursor ? { cursor } : {}) });
    const page = customFieldsPage({
      session: sessionOf(req),
      fields: result.data,
      nextCursor: result.next_cursor,
      onLaterPage: cursor !== undefined,
      notice: noticeFrom(req, NOTICES),
      ...(refused ? { error: refused.error, errorField: refused.errorField, form: refused.form } : {}),
    });
    sendPage(res, page, refused?.status ?? 200);
  };

  router.get('/', (req, res) => showList(req, res));

  router.post('/', async (req, res) => {
    const form = fieldForm(req);
    try {
      const options = optionsOf(form.options);
      const input = parseWith(createCustomField.input, { object_type: form.object_type, key: form.key, label: form.label, type: form.type, required: form.required, ...(options ? { options } : {}) });
      await callWorker(deps.bus, req, createCustomField, input);
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'conflict'])) {
        return showList(req, res, { error: refusalMessage(error, LABELS), errorField: refusedField(error, LABELS), form, status: HTTP_STATUS[error.code] });
      }
      throw error;
    }
    res.redirect(303, `${listPath(req)}?notice=added`);
  });

  router.get('/:fieldId', async (req, res) => {
    const { result: field } = await callWorker(deps.bus, req, getCustomField, { id: pathParam(req, 'fieldId') });
    sendPage(res, customFieldEditPage({ session: sessionOf(req), field }));
  });

  router.post('/:fieldId', async (req, res) => {
    const id = pathParam(req, 'fieldId');
    const form: CustomFieldChangeForm = { label: textField(req, 'label', 1000), options: textField(req, 'options', 50_000), required: textField(req, 'required', 10) === 'yes' };
    // Read once: a refused change changes nothing, so the page shown with it has this field as it is.
    const { result: field } = await callWorker(deps.bus, req, getCustomField, { id });
    try {
      // Only a choice from a list has options; an emptied list is sent as one, for the API to refuse.
      const options = field.type === 'select' ? { options: optionsOf(form.options) ?? [] } : {};
      await callWorker(deps.bus, req, updateCustomField, parseWith(updateCustomField.input, { id, label: form.label, required: form.required, ...options }));
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'conflict'])) {
        const refusal = { form, error: refusalMessage(error, FIELD_CHANGE_LABELS), field: refusedField(error, FIELD_CHANGE_LABELS) };
        return sendPage(res, customFieldEditPage({ session: sessionOf(req), field, refusal }), HTTP_STATUS[error.code]);
      }
      throw error;
    }
    res.redirect(303, `${listPath(req)}?notice=changed`);
  });

  router.get('/:fieldId/archive', async (req, res) => {
    const session = sessionOf(req);
    const { result: field } = await callWorker(deps.bus, req, getCustomField, { id: pathParam(req, 'fieldId') });
    const list = listPath(req);
    sendPage(
      res,
      confirmPage({
        session,
        section: 'overview',
        title: `Archive the field "${field.label}"?`,
        details: html`<p>${field.object_type === 'contact' ? 'Contacts' : 'Deals'} keep their values of <code>${field.key}</code>, but the field is no longer shown,
          asked for or accepted in writes until it is restored.</p>`,
        action: `${list}/${encodeURIComponent(field.id)}/archive`,
        button: 'Archive field',
        cancel: list,
      }),
    );
  });

  router.post('/:fieldId/archive', async (req, res) => {
    await callWorker(deps.bus, req, archiveCustomField, { id: pathParam(req, 'fieldId') });
    res.redirect(303, `${listPath(req)}?notice=archived`);
  });

  // Restoring takes nothing away: no confirmation.
  router.post('/:fieldId/restore', async (req, res) => {
    await callWorker(deps.bus, req, updateCustomField, { id: pathParam(req, 'fieldId'), archived: false });
    res.redirect(303, `${listPath(req)}?notice=restored`);
  });

  return router;
}
