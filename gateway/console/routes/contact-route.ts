import { Router, type Request, type Response } from 'express';
import { getContact, updateContact, type Contact } from '../../../shared/contracts/contacts.js';
import { NotFoundError } from '../../../shared/errors.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { parseWith } from '../../validation.js';
import { refusalMessage, refusedField } from '../form-refusal.js';
import { noticeFrom } from '../notice.js';
import { CONTACT_FORM_FIELDS, contactEditPage, contactFormOf, type ContactForm } from '../pages/contact-edit-page.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { sendPage } from '../../pages/session-routes.js';
import { may } from '../console-layout.js';
import { sessionOf } from '../console-session.js';
import { pathParam, textField } from '../form-fields.js';
import { addNoteFromForm } from '../note-form.js';
import { customFieldLabels } from '../custom-field-labels.js';
import { changedCustomFieldValues, customFieldFormFrom, customFieldFormOf, customFieldLabelsOf } from '../custom-field-inputs.js';
import { workspaceSchema } from '../workspace-schema.js';
import { changedMeanwhileMessage, fieldsChangedMeanwhile, formValuesOf, rebasedOn } from '../changed-meanwhile.js';
import { CONTACT_FIELD_LABELS, contactDetailsOf } from '../pages/contact-fields.js';
import { contactPage } from '../pages/contact-page.js';
import { recordEvents } from '../record-events.js';
import { recordNotes } from '../record-notes.js';
import { recordPagePosition } from '../record-page-position.js';
import { workspacePath } from '../workspace-url.js';
import { recordValueNames } from '../record-value-names.js';
import { requireRecordWrite } from '../require-record-write.js';

const NOTICES: Record<string, string> = { saved: 'The contact was saved.', created: 'The contact was created.' };

/** The edit form's fields as the page labels them, for its refusals. */
const LABELS = { ...CONTACT_FIELD_LABELS, status: 'Status' };

function typedForm(req: Request, prefix = ''): ContactForm {
  return { ...contactDetailsOf(req, prefix), status: textField(req, `${prefix}status`, 20) };
}

/** The fields changed from the values the form was read with, as PATCH takes them: an emptied e-mail clears it. */
function changedFields(form: ContactForm, original: ContactForm): Partial<Record<keyof ContactForm, string | null>> {
  const changed: Partial<Record<keyof ContactForm, string | null>> = {};
  for (const field of CONTACT_FORM_FIELDS) {
    if (form[field] === original[field]) continue;
    changed[field] = field === 'email' && form.email.trim() === '' ? null : form[field];
  }
  return changed;
}

/** The values the changed fields were read with, as the contact showed them (an empty box is null where the field may be unset). */
function readValues(form: ContactForm, original: ContactForm): Partial<Record<keyof ContactForm, string | null>> {
  const read: Partial<Record<keyof ContactForm, string | null>> = {};
  for (const field of CONTACT_FORM_FIELDS) {
    if (form[field] === original[field]) continue;
    read[field] = (field === 'email' || field === 'last_name') && original[field] === '' ? null : original[field];
  }
  return read;
}

/**
 * One contact, its notes and its history, read with GET /v1/contacts/{id}'s operation in the
 * member's context: a contact they may not see (another owner's, for an `owned` member) is a
 * 404. A member who may write contacts adds notes with the form on the page.
 */
export function contactRoute(deps: GatewayDeps): Router {
  const router = Router();

  const show = async (req: Request, res: Response, noteForm: { error: string; draft: string; status: number } | null = null) => {
    const session = sessionOf(req);
    const id = pathParam(req, 'contactId');
    // Without contacts:read the contact does not exist for this member, as for REST's owned visibility.
    if (!may(session, 'contacts:read')) throw new NotFoundError('contact', id);
    const [{ result: contact }, notes, history, names, fieldLabel] = await Promise.all([
      callWorker(deps.bus, req, getContact, { id }),
      recordNotes(deps, req, { contact_id: id }),
      recordEvents(deps, req, id),
      recordValueNames(deps, req, session),
      customFieldLabels(deps, req, 'contact'),
    ]);
    const page = contactPage({ session, contact, ...history, names, fieldLabel, position: recordPagePosition(req), notes: { ...notes, mayWrite: may(session, 'contacts:write'), ...(noteForm ?? {}) }, notice: noticeFrom(req, NOTICES) });
    sendPage(res, page, noteForm?.status ?? 200);
  };

  router.get('/:contactId', (req, res) => show(req, res));

  const editable = async (req: Request): Promise<Contact> => {
    const id = pathParam(req, 'contactId');
    requireRecordWrite(req, 'contacts', 'change', () => new NotFoundError('contact', id));
    return (await callWorker(deps.bus, req, getContact, { id })).result;
  };

  const fieldsOf = async (req: Request) => (await workspaceSchema(deps, req)).custom_fields.contact;

  router.get('/:contactId/edit', async (req, res) => {
    const [contact, fields] = await Promise.all([editable(req), fieldsOf(req)]);
    const form = contactFormOf(contact);
    const custom = customFieldFormFrom(fields, contact.custom_fields);
    sendPage(res, contactEditPage({ session: sessionOf(req), contact, form, original: form, fields, custom, originalCustom: custom }));
  });

  router.post('/:contactId/edit', async (req, res) => {
    const [contact, fields] = await Promise.all([editable(req), fieldsOf(req)]);
    const form = typedForm(req);
    let original = typedForm(req, 'original_');
    const custom = customFieldFormOf(req, fields);
    let originalCustom = customFieldFormOf(req, fields, { original: true });
    try {
      const values = changedCustomFieldValues(fields, custom, originalCustom);
      // The same comparison the other way round: the changed custom fields' values as read.
      const readCustom = changedCustomFieldValues(fields, originalCustom, custom);
      const changes = { ...changedFields(form, original), ...(Object.keys(values).length > 0 ? { custom_fields: values } : {}) };
      // The worker refuses a changed field someone else changed since the form was read (conflict), on the locked row.
      const expected = { ...readValues(form, original), ...(Object.keys(readCustom).length > 0 ? { custom_fields: readCustom } : {}) };
      if (Object.keys(changes).length > 0) await callWorker(deps.bus, req, updateContact, parseWith(updateContact.input, { id: contact.id, ...changes, expected_values: expected }));
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'phone_taken', 'missing_scope', 'conflict'])) {
        const labels: Record<string, string> = { ...LABELS, ...customFieldLabelsOf(fields) };
        let message = refusalMessage(error, labels);
        let errorField = refusedField(error, labels);
        let shown = contact;
        if (error.code === 'conflict') {
          // The contact as it is now: each field changed meanwhile is named with its current value, and the form is based on it.
          shown = (await callWorker(deps.bus, req, getContact, { id: contact.id })).result;
          const now = formValuesOf(contactFormOf(shown), customFieldFormFrom(fields, shown.custom_fields));
          const read = formValuesOf(original, originalCustom);
          const changed = fieldsChangedMeanwhile(Object.keys(labels), formValuesOf(form, custom), read, now);
          if (changed.length > 0) {
            message = changed.map((field) => changedMeanwhileMessage(labels[field] ?? field, read[field] ?? '', now[field] ?? '')).join(' ');
            errorField = changed[0];
            ({ original, originalCustom } = rebasedOn(original, originalCustom, changed, now));
          }
        }
        const page = contactEditPage({ session: sessionOf(req), contact: shown, form, original, fields, custom, originalCustom, error: message, errorField, existingId: error.details.existing_id });
        return sendPage(res, page, HTTP_STATUS[error.code]);
      }
      throw error;
    }
    res.redirect(303, `${workspacePath(sessionOf(req), `/contacts/${encodeURIComponent(contact.id)}`)}?notice=saved`);
  });

  router.post('/:contactId/notes', async (req, res) => {
    const id = pathParam(req, 'contactId');
    const outcome = await addNoteFromForm(deps, req, { contact_id: id });
    if (!outcome.added) return show(req, res, outcome);
    res.redirect(303, `${workspacePath(sessionOf(req), `/contacts/${encodeURIComponent(id)}`)}#notes`);
  });
  return router;
}
