import { PERMISSION_DESCRIPTIONS, PERMISSIONS, VISIBILITY_DESCRIPTIONS, type Visibility } from '../../../shared/auth/permissions.js';
import { html, type Html } from '../../pages/html.js';

export interface MemberForm {
  email: string;
  permissions: string[];
  visibility: string;
}

/** The permission checkboxes and visibility choice shared by the invite and change forms. */
export function memberFields(form: MemberForm, idPrefix: string): Html {
  const visibilities: Visibility[] = ['all', 'owned'];
  return html`
    <fieldset>
      <legend>Permissions</legend>
      ${PERMISSIONS.map(
        (p) => html`<label class="inline"><input type="checkbox" name="permissions" value="${p}" ${form.permissions.includes(p) ? 'checked' : ''}>
          ${PERMISSION_DESCRIPTIONS[p]}</label>`,
      )}
    </fieldset>
    <fieldset>
      <legend>Which records they see</legend>
      ${visibilities.map(
        (v) => html`<label class="inline" for="${idPrefix}-visibility-${v}"><input type="radio" id="${idPrefix}-visibility-${v}" name="visibility" value="${v}" ${form.visibility === v ? 'checked' : ''} required>
          ${VISIBILITY_DESCRIPTIONS[v]}</label>`,
      )}
    </fieldset>`;
}
