import { Router, type Request, type Response } from 'express';
import { createToken, getToken, listTokens, nameTokenCreators, revokeToken, type ApiToken } from '../../../shared/contracts/tokens.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { html } from '../../pages/html.js';
import { sendPage } from '../../pages/session-routes.js';
import { parseWith } from '../../validation.js';
import { sessionOf } from '../console-session.js';
import { dayStart, listField, textField } from '../form-fields.js';
import { when } from '../format.js';
import { noticeFrom } from '../notice.js';
import { tokenCreatedPage } from '../pages/token-created-page.js';
import { tokensPage, type TokenForm } from '../pages/tokens-page.js';
import { requireConfiguration } from '../require-configuration.js';
import { revokeRoutes } from './revoke-routes.js';
import { refusalMessage, refusedField } from '../form-refusal.js';
import { ADMIN_LIST_PAGE_SIZE } from '../list-pager.js';

/** The create form's fields as the page labels them, for its refusals. */
const LABELS = { name: 'Name', scopes: 'Scopes', expires_at: 'Expires on' };

const NOTICES: Record<string, string> = {
  revoked: 'The token was revoked. The next call made with it gets a 401.',
};

/**
 * Who created each token, in words: a member's e-mail, marked when they have been removed
 * since (their tokens live on), or the creating token's name, marked when revoked; never a
 * bare usr_/tok_ id, which says nothing to a person.
 */
async function creatorNames(deps: GatewayDeps, req: Request, tokens: ApiToken[]): Promise<Map<string, string>> {
  const ids = [...new Set(tokens.flatMap((t) => (t.created_by === null ? [] : [t.created_by])))];
  const names = new Map<string, string>();
  if (ids.length === 0) return names;
  const { result } = await callWorker(deps.bus, req, nameTokenCreators, { ids });
  for (const u of result.users) names.set(u.id, u.member ? u.email : `${u.email} (no longer a member)`);
  for (const t of result.tokens) names.set(t.id, `API token "${t.name}"${t.revoked ? ' (revoked)' : ''}`);
  for (const id of ids) if (!names.has(id)) names.set(id, id.startsWith('tok_') ? 'An API token' : 'A former member');
  return names;
}

/** API tokens of the workspace (administrators only): list, create, revoke. */
export function tokensRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.use(requireConfiguration);

  const showList = async (req: Request, res: Response, extra: { error?: string; errorField?: string | undefined; form?: TokenForm; status?: number } = {}) => {
    const session = sessionOf(req);
    const includeRevoked = req.query.revoked === '1';
    const cursor = typeof req.query.cursor === 'string' && extra.form === undefined ? req.query.cursor : undefined;
    const tokens = await callWorker(deps.bus, req, listTokens, { limit: ADMIN_LIST_PAGE_SIZE, include_revoked: includeRevoked, ...(cursor ? { cursor } : {}) });
    const creators = await creatorNames(deps, req, tokens.result.data);
    sendPage(
      res,
      tokensPage({
        session,
        tokens: tokens.result.data,
        creators,
        grantable: session.scopes,
        includeRevoked,
        nextCursor: tokens.result.next_cursor,
        onLaterPage: cursor !== undefined,
        cursor,
        notice: noticeFrom(req, NOTICES),
        ...extra,
      }),
      extra.status ?? 200,
    );
  };

  router.get('/', (req, res) => showList(req, res));

  router.post('/', async (req, res) => {
    const form: TokenForm = { name: textField(req, 'name', 200), scopes: listField(req, 'scopes'), expires_on: textField(req, 'expires_on', 20) };
    try {
      const input = parseWith(createToken.input, { name: form.name, scopes: form.scopes, expires_at: form.expires_on === '' ? null : dayStart(form.expires_on, sessionOf(req).timeZone) });
      const { result } = await callWorker(deps.bus, req, createToken, input);
      sendPage(res, tokenCreatedPage(sessionOf(req), result, deps.publicUrl()));
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'missing_scope', 'forbidden'])) return showList(req, res, { error: refusalMessage(error, LABELS), errorField: refusedField(error, LABELS), form, status: HTTP_STATUS[error.code] });
      throw error;
    }
  });

  revokeRoutes<ApiToken>(router, {
    section: 'tokens',
    list: '/tokens',
    filterKeys: ['revoked'],
    load: async (req, id) => (await callWorker(deps.bus, req, getToken, { id })).result,
    confirm: (token, session) => ({
      title: `Revoke the token "${token.name}"?`,
      details: token.revoked_at
        ? html`<p>This token was already revoked ${when(token.revoked_at, session)}.</p>`
        : html`<p>Programs using <code>${token.display_hint}</code> will get a 401 on their next call. This cannot be undone.</p>
              <p class="muted">Last used: ${when(token.last_used_at, session, 'never')}.</p>`,
      fields: html`<p><label class="inline"><input type="checkbox" name="revoke_children" value="yes">
        Also revoke the tokens this token created, and theirs</label></p>`,
      button: 'Revoke token',
    }),
    revoke: (req, id) => callWorker(deps.bus, req, revokeToken, { id, revoke_children: textField(req, 'revoke_children', 10) === 'yes' }),
  });

  return router;
}
