import type { WorkspaceSettings } from '../../../shared/contracts/workspace-settings.js';
import { CURRENT_NAME_OF_ICU_ZONE } from '../../../shared/time/renamed-zones.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { noticeLine } from '../notice.js';
import { workspacePath } from '../workspace-url.js';
import { controlState } from '../form-refusal.js';

export interface WorkspaceSettingsForm {
  time_zone: string;
  default_country: string;
}

/**
 * Every zone this runtime knows, UTC first: the choices of the time zone list, under the
 * names the workspace stores (ICU's list still says Asia/Calcutta for Asia/Kolkata).
 */
const TIME_ZONES = [
  'UTC',
  ...Intl.supportedValuesOf('timeZone')
    .filter((zone) => zone !== 'UTC')
    .map((zone) => CURRENT_NAME_OF_ICU_ZONE[zone] ?? zone)
    .sort(),
];

/** The workspace's settings (administrators): its time zone and the default country for phones. */
export function workspaceSettingsPage(
  session: ConsoleSession,
  settings: WorkspaceSettings,
  options: { error?: string; errorField?: string | undefined; form?: WorkspaceSettingsForm; notice?: string } = {},
): Html {
  const form = options.form ?? { time_zone: settings.time_zone, default_country: settings.default_country ?? '' };
  const refused = { field: options.errorField, errorId: 'settings-error' };
  const zones = TIME_ZONES.includes(form.time_zone) ? TIME_ZONES : [form.time_zone, ...TIME_ZONES];
  return consoleLayout({
    session,
    section: 'overview',
    title: 'Workspace settings',
    body: html`
      ${noticeLine(options.notice)}
      ${options.error ? html`<p class="error" role="alert" id="settings-error">${options.error}</p>` : ''}
      <form method="post" action="${workspacePath(session, '/settings')}" ${options.error ? html`aria-describedby="settings-error"` : ''}>
        <input type="hidden" name="csrf_token" value="${session.csrf}">
        <div class="field">
          <label for="time_zone">Time zone</label>
          <select id="time_zone" name="time_zone" ${controlState(refused, 'time_zone', 'time-zone-help')}>
            ${zones.map((zone) => html`<option value="${zone}" ${zone === form.time_zone ? 'selected' : ''}>${zone}</option>`)}
          </select>
          <p class="muted" id="time-zone-help">Days in filters (created after 2026-01-31) and ranges such as last week are read in this time zone. The console shows times in it too; the API stores and returns them in UTC.</p>
        </div>
        <div class="field">
          <label for="default_country">Default country for phones</label>
          <input id="default_country" name="default_country" type="text" maxlength="2" value="${form.default_country}" ${controlState(refused, 'default_country', 'country-help')}>
          <p class="muted" id="country-help">Two letters, e.g. US: a phone written without a country code is read in this country. Empty: such phones are refused.</p>
        </div>
        <div class="actions">
          <button class="primary" type="submit">Save settings</button>
          <a class="button-link" href="${workspacePath(session, '')}">Back to the overview</a>
        </div>
      </form>`,
  });
}
