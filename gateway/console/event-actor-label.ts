import type { Actor, ActorKind } from '../../shared/contracts/events.js';
import { html, type Html } from '../pages/html.js';

/** The kinds of actor as the Activity page names them (also the labels of its filter). */
export const ACTOR_KIND_LABELS: Record<ActorKind, string> = {
  api_token: 'API token',
  oauth_agent: 'Connected agent',
  console_user: 'Console user',
  cli: 'Command line',
  import: 'Import',
  system: 'The service',
};

/** Who made a change: the kind, then the token's name, the user's e-mail, or the agent and the user it acts for. */
export function actorCell(actor: Actor): Html {
  const kind = html`<span class="muted">${ACTOR_KIND_LABELS[actor.kind]}</span>`;
  if (actor.kind === 'oauth_agent') return html`${kind} ${actor.name}${actor.user ? html` <span class="muted">for</span> ${actor.user.email}` : ''}`;
  if (actor.kind === 'cli' || actor.kind === 'system') return kind;
  return html`${kind} ${actor.name}`;
}
