import { PERMISSION_DESCRIPTIONS, PERMISSIONS, VISIBILITY_DESCRIPTIONS, type Visibility } from '../../../shared/auth/permissions.js';
import { html, type Html } from '../../pages/html.js';

/** A refusal of the form: the field it is about (permissions, visibility) and the id of the element saying why. */
export interface MemberFormRefusal {
  field?: string | undefined;
  errorId: string;
}

/** A refused group: the reason is the group's description, and each of its choices is marked (a fieldset takes no aria-invalid). */
function groupState(refused: MemberFormRefusal, field: string): { group: Html; choice: Html } {
  if (refused.field !== field) return { group: html``, choice: html`` };
  return { group: html`aria-describedby="${refused.errorId}"`, choice: html`aria-invalid="true"` };
}

export interface MemberForm {
  email: string;
  permissions: string[];
  visibility: string;
}

/** The permission checkboxes and visibility choice shared by the invite and change forms. */
export function memberFields(form: MemberForm, idPrefix: string, refused: MemberFormRefusal): Html {
  const visibilities: Visibility[] = ['all', 'owned'];
  const permissions = groupState(refused, 'permissions');
  const visibility = groupState(refused, 'visibility');
  return html`
    <fieldset ${permissions.group}>
      <legend>Permissions</legend>
      ${PERMISSIONS.map(
        (p) => html`<label class="inline"><input type="checkbox" name="permissions" value="${p}" ${form.permissions.includes(p) ? 'checked' : ''} ${permissions.choice}>
          ${PERMISSION_DESCRIPTIONS[p]}</label>`,
      )}
    </fieldset>
    <fieldset ${visibility.group}>
      <legend>Which records they see</legend>
      ${visibilities.map(
        (v) => html`<label class="inline" for="${idPrefix}-visibility-${v}"><input type="radio" id="${idPrefix}-visibility-${v}" name="visibility" value="${v}" ${form.visibility === v ? 'checked' : ''} required ${visibility.choice}>
          ${VISIBILITY_DESCRIPTIONS[v]}</label>`,
      )}
    </fieldset>`;
}
