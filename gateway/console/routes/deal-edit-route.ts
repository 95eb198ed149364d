import { Router, type Request } from 'express';
import type { CustomField } from '../../../shared/contracts/custom-fields.js';
import { getDeal, updateDeal, type Deal } from '../../../shared/contracts/deals.js';
import { nameMembers } from '../../../shared/contracts/members.js';
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
import { changedMeanwhileMessage, fieldsChangedMeanwhile, formValuesOf, rebasedOn } from '../changed-meanwhile.js';
import { changedCustomFieldValues, customFieldFormFrom, customFieldFormOf, customFieldLabelsOf, customFieldName, type CustomFieldForm } from '../custom-field-inputs.js';
import { chosenContactId, presetContact, unknownContactMessage } from '../deal-contact-choice.js';
import { pathParam, textField } from '../form-fields.js';
import { refusalMessage, refusedField } from '../form-refusal.js';
import { DEAL_EDIT_LABELS, dealEditPage, dealFormOf, type DealEditForm } from '../pages/deal-edit-page.js';
import { requireRecordWrite } from '../require-record-write.js';
import { workspacePath } from '../workspace-url.js';
import { workspaceSchema } from '../workspace-schema.js';

/** Whether the member may give a deal another owner: one who sees every record. */
const handsOn = (req: Request) => sessionOf(req).membership?.visibility === 'all';

/** The members a deal may be handed to, by e-mail ("You" for oneself); null when the member may not hand it on. */
async function ownersOf(deps: GatewayDeps, req: Request): Promise<{ id: string; name: string }[] | null> {
  if (!handsOn(req)) return null;
  const self = sessionOf(req).user.id;
  const { members } = (await callWorker(deps.bus, req, nameMembers, {})).result;
  return members.map((m) => ({ id: m.user_id, name: m.user_id === self ? 'You' : m.email }));
}

function typedForm(req: Request, prefix = ''): DealEditForm {
  return {
    name: textField(req, `${prefix}name`, 1000),
    amount: textField(req, `${prefix}amount`, 100),
    currency: textField(req, `${prefix}currency`, 20),
    contact: textField(req, `${prefix}contact`, 300),
    owner: textField(req, `${prefix}owner`, 100),
  };
}

interface TypedDeal {
  form: DealEditForm;
  original: DealEditForm;
  custom: CustomFieldForm;
  originalCustom: CustomFieldForm;
}

/** An amount with its currency as the form shows it, for a message; none is "no amount". */
const amountShown = (form: Pick<DealEditForm, 'amount' | 'currency'>) => (form.amount === '' ? 'no amount' : `${form.amount} ${form.currency}`.trim());

/**
 * An amount with its currency as one comparable value: minor units and the upper-case code, so
 * 1,000.00 and 1000 (USD), or usd and USD, are the same value; text the form cannot read
 * compares as typed (the change is then sent, and refused beside the field).
 */
function amountValue(form: Pick<DealEditForm, 'amount' | 'currency'>): string {
  const currency = form.currency.trim().toUpperCase();
  try {
    return `${minorUnitsOf(form.amount, currency) ?? ''} ${currency}`;
  } catch {
    return `typed ${form.amount.trim()} ${currency}`;
  }
}

const sameAmount = (a: Pick<DealEditForm, 'amount' | 'currency'>, b: Pick<DealEditForm, 'amount' | 'currency'>) => amountValue(a) === amountValue(b);

/**
 * The refusal of a changed amount or currency when the deal's amount or currency is no longer
 * what the form was read with (the worker refused the save: see changesOf), as the deal is now:
 * amount and currency are sent together (one value), so saving would silently undo the other
 * change. Not when the deal already holds what the form sets (the same form sent twice). The form
 * keeps what was typed, takes the current value of the half the member left alone, and is now
 * based on the current values, so saving again sets it knowingly. Null: nothing in the way.
 */
function amountChangedMeanwhile(deal: Deal, typed: TypedDeal): string | null {
  const { form, original } = typed;
  if (sameAmount(form, original)) return null;
  const current = dealFormOf(deal);
  if (sameAmount(current, original) || sameAmount(current, form)) return null;
  typed.form = {
    ...form,
    amount: form.amount === original.amount ? current.amount : form.amount,
    currency: form.currency === original.currency ? current.currency : form.currency,
  };
  typed.original = { ...original, amount: current.amount, currency: current.currency };
  return `${DEAL_EDIT_LABELS.amount}: changed meanwhile by someone else; it is now ${amountShown(current)} (it was ${amountShown(original)} when you opened this form). Nothing was saved; what you typed is kept, the rest shows the current value: save again to set it.`;
}

/** The form's amount and currency as the deal holds them. */
const moneyOf = (form: Pick<DealEditForm, 'amount' | 'currency'>) => ({ amount: minorUnitsOf(form.amount, form.currency), currency: form.currency.trim() === '' ? null : form.currency });

/**
 * The fields changed from the values the form was read with, as PATCH takes them, so a change
 * someone made meanwhile to another field stands; with the values they were read with, so the
 * worker refuses one someone changed meanwhile (409 conflict) rather than overwrite it. An
 * amount and its currency are one value: either changed sends both, the amount read in the
 * currency typed. The contact only from a member who may read contacts (the form offers it to
 * no one else); emptied, it unlinks. The owner only from a member who sees every record (one
 * who sees their own cannot hand one on).
 */
async function changesOf(deps: GatewayDeps, req: Request, deal: Deal, fields: readonly CustomField[], typed: TypedDeal) {
  const { form, original } = typed;
  const values = changedCustomFieldValues(fields, typed.custom, typed.originalCustom);
  // The same comparison the other way round: the changed custom fields' values as read.
  const readCustom = changedCustomFieldValues(fields, typed.originalCustom, typed.custom);
  const contactChanged = may(sessionOf(req), 'contacts:read') && form.contact.trim() !== original.contact.trim();
  const ownerChanged = handsOn(req) && form.owner !== original.owner;
  const nameChanged = form.name !== original.name;
  const amountChanged = !sameAmount(form, original);
  return parseWith(updateDeal.input, {
    id: deal.id,
    ...(nameChanged ? { name: form.name } : {}),
    ...(amountChanged ? moneyOf(form) : {}),
    ...(contactChanged ? { contact_id: (await chosenContactId(deps, req, form.contact)) ?? null } : {}),
    ...(ownerChanged ? { owner_id: form.owner === '' ? null : form.owner } : {}),
    ...(Object.keys(values).length > 0 ? { custom_fields: values } : {}),
    expected_values: {
      ...(nameChanged ? { name: original.name } : {}),
      ...(amountChanged ? moneyOf(original) : {}),
      ...(contactChanged ? { contact_id: original.contact.trim() === '' ? null : original.contact.trim() } : {}),
      ...(ownerChanged ? { owner_id: original.owner === '' ? null : original.owner } : {}),
      ...(Object.keys(readCustom).length > 0 ? { custom_fields: readCustom } : {}),
    },
  });
}

/**
 * After the worker refused the save (conflict): each changed field someone else changed
 * meanwhile named with its current value (an amount as its own refusal), the form kept as typed
 * and based on the deal as it is now. Null: none is any more (changed back since).
 */
async function changedMeanwhileRefusal(deps: GatewayDeps, req: Request, now: Deal, fields: readonly CustomField[], typed: TypedDeal): Promise<{ error: string; errorField: string } | null> {
  const labels: Record<string, string> = { ...DEAL_EDIT_LABELS, ...customFieldLabelsOf(fields) };
  const nowValues = formValuesOf(dealFormOf(now), customFieldFormFrom(fields, now.custom_fields));
  const read = formValuesOf(typed.original, typed.originalCustom);
  const compared = ['name', ...(may(sessionOf(req), 'contacts:read') ? ['contact'] : []), ...(handsOn(req) ? ['owner'] : []), ...fields.map((f) => customFieldName(f.key))];
  const changed = fieldsChangedMeanwhile(compared, formValuesOf(typed.form, typed.custom), read, nowValues);
  const amount = amountChangedMeanwhile(now, typed);
  ({ original: typed.original, originalCustom: typed.originalCustom } = rebasedOn(typed.original, typed.originalCustom, changed, nowValues));
  // Ids as the member knows them: the contact's name, the owner's e-mail.
  const owners = changed.includes('owner') ? ((await ownersOf(deps, req)) ?? []) : [];
  const shown = async (field: string, value: string) => {
    if (field === 'contact') return (await presetContact(deps, req, value))?.name ?? value;
    if (field === 'owner') return owners.find((o) => o.id === value)?.name ?? value;
    return value;
  };
  const messages = [
    ...(amount === null ? [] : [amount]),
    ...(await Promise.all(changed.map(async (field) => changedMeanwhileMessage(labels[field] ?? field, await shown(field, read[field] ?? ''), await shown(field, nowValues[field] ?? ''))))),
  ];
  const first = amount === null ? changed[0] : 'amount';
  return first === undefined ? null : { error: messages.join(' '), errorField: first };
}

/**
 * "Change this deal", with PATCH /v1/deals/{id}'s operation in the member's context: one event
 * with the console user as actor, as for REST. Sent twice, the second PATCH sets the values the
 * first set, which the worker takes as no change (no second event).
 */
export function dealEditRoute(deps: GatewayDeps): Router {
  const router = Router();
  const fieldsOf = async (req: Request) => (await workspaceSchema(deps, req)).custom_fields.deal;
  const editable = async (req: Request): Promise<Deal> => {
    const id = pathParam(req, 'dealId');
    requireRecordWrite(req, 'deals', 'change', () => new NotFoundError('deal', id));
    return (await callWorker(deps.bus, req, getDeal, { id })).result;
  };
  const contactNameOf = async (req: Request, deal: Deal) => (await presetContact(deps, req, deal.contact_id ?? undefined))?.name ?? null;
  const page = async (req: Request, deal: Deal, fields: readonly CustomField[], typed: TypedDeal, refusal: { error: string; errorField: string | undefined } | null = null) =>
    dealEditPage({ session: sessionOf(req), deal, fields, ...typed, contactChoice: may(sessionOf(req), 'contacts:read'), contactName: await contactNameOf(req, deal), owners: await ownersOf(deps, req), ...(refusal ?? {}) });

  router.get('/:dealId/edit', async (req, res) => {
    const [deal, fields] = await Promise.all([editable(req), fieldsOf(req)]);
    const form = dealFormOf(deal);
    const custom = customFieldFormFrom(fields, deal.custom_fields);
    sendPage(res, await page(req, deal, fields, { form, original: form, custom, originalCustom: custom }));
  });

  router.post('/:dealId/edit', async (req, res) => {
    const [deal, fields] = await Promise.all([editable(req), fieldsOf(req)]);
    const typed: TypedDeal = { form: typedForm(req), original: typedForm(req, 'original_'), custom: customFieldFormOf(req, fields), originalCustom: customFieldFormOf(req, fields, { original: true }) };
    try {
      const input = await changesOf(deps, req, deal, fields, typed);
      if (Object.keys(input).some((field) => field !== 'id' && field !== 'expected_values')) await callWorker(deps.bus, req, updateDeal, input);
    } catch (error) {
      if (crmErrorIn(error, ['conflict'])) {
        const now = (await callWorker(deps.bus, req, getDeal, { id: deal.id })).result;
        const refusal = (await changedMeanwhileRefusal(deps, req, now, fields, typed)) ?? { error: error.message, errorField: undefined };
        return sendPage(res, await page(req, now, fields, typed, refusal), HTTP_STATUS.conflict);
      }
      // A contact the member may not see is refused beside its field, as one that does not exist; so is an owner removed meanwhile.
      const refused = crmErrorIn(error, ['validation_failed', 'missing_scope']) || (crmErrorIn(error, ['not_found']) && ['contact_id', 'owner_id'].includes(error.details.param ?? ''));
      if (refused) {
        const labels = { ...DEAL_EDIT_LABELS, ...customFieldLabelsOf(fields) };
        const message = error.code === 'not_found' && error.details.param === 'contact_id' ? unknownContactMessage(typed.form.contact) : refusalMessage(error, labels);
        return sendPage(res, await page(req, deal, fields, typed, { error: message, errorField: refusedField(error, labels) }), HTTP_STATUS[error.code]);
      }
      throw error;
    }
    res.redirect(303, `${workspacePath(sessionOf(req), `/deals/${encodeURIComponent(deal.id)}`)}?notice=saved`);
  });
  return router;
}
