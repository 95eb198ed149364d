import { Router, type Request, type Response } from 'express';
import { grantableScopes } from '../../../shared/auth/permissions.js';
import { listMembers } from '../../../shared/contracts/members.js';
import { createToken, getToken, listTokens, revokeToken } from '../../../shared/contracts/tokens.js';
import { CrmError, validationErrorFrom } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { html } from '../../pages/html.js';
import { sendPage } from '../../pages/session-routes.js';
import { workspacePath } from '../console-layout.js';
import { sessionOf } from '../console-session.js';
import { listField, pathParam, textField } from '../form-fields.js';
import { when } from '../format.js';
import { confirmPage } from '../pages/confirm-page.js';
import { tokenCreatedPage } from '../pages/token-created-page.js';
import { tokensPage, type TokenForm } from '../pages/tokens-page.js';
import { requireConfiguration } from '../require-configuration.js';

const NOTICES: Record<string, string> = {
  revoked: 'The token was revoked. The next call made with it gets a 401.',
};

/** API tokens of the workspace (administrators only): list, create, revoke. */
export function tokensRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.use(requireConfiguration);

  const showList = async (req: Request, res: Response, extra: { error?: string; form?: TokenForm; status?: number } = {}) => {
    const session = sessionOf(req);
    const includeRevoked = req.query.revoked === '1';
    const cursor = typeof req.query.cursor === 'string' && extra.form === undefined ? req.query.cursor : undefined;
    const [tokens, members] = await Promise.all([
      callWorker(deps.bus, req, listTokens, { limit: 50, include_revoked: includeRevoked, ...(cursor ? { cursor } : {}) }),
      callWorker(deps.bus, req, listMembers, {}),
    ]);
    const creators = new Map<string, string>(members.result.members.map((m) => [m.user_id, m.email]));
    for (const t of tokens.result.data) creators.set(t.id, `API token "${t.name}"`);
    const notice = typeof req.query.notice === 'string' ? NOTICES[req.query.notice] : undefined;
    sendPage(
      res,
      tokensPage({
        session,
        tokens: tokens.result.data,
        creators,
        grantable: grantableScopes(session.membership?.permissions ?? []),
        includeRevoked,
        nextCursor: tokens.result.next_cursor,
        ...(notice ? { notice } : {}),
        ...extra,
      }),
      extra.status ?? 200,
    );
  };

  router.get('/', (req, res) => showList(req, res));

  router.post('/', async (req, res) => {
    const form: TokenForm = { name: textField(req, 'name', 200), scopes: listField(req, 'scopes'), expires_on: textField(req, 'expires_on', 20) };
    const input = {
      name: form.name,
      scopes: form.scopes,
      expires_at: /^\d{4}-\d{2}-\d{2}$/.test(form.expires_on) ? `${form.expires_on}T00:00:00Z` : form.expires_on === '' ? null : form.expires_on,
    };
    try {
      const parsed = createToken.input.safeParse(input);
      if (!parsed.success) throw validationErrorFrom(parsed.error);
      const { result } = await callWorker(deps.bus, req, createToken, parsed.data);
      sendPage(res, tokenCreatedPage(sessionOf(req), result, deps.publicUrl()));
    } catch (error) {
      if (error instanceof CrmError && (error.code === 'validation_failed' || error.code === 'missing_scope' || error.code === 'forbidden')) {
        return showList(req, res, { error: error.message, form, status: HTTP_STATUS[error.code] });
      }
      throw error;
    }
  });

  router.get('/:tokenId/revoke', async (req, res) => {
    const session = sessionOf(req);
    const { result: token } = await callWorker(deps.bus, req, getToken, { id: pathParam(req, 'tokenId') });
    const list = workspacePath(session, '/tokens');
    sendPage(
      res,
      confirmPage({
        session,
        section: 'tokens',
        title: `Revoke the token "${token.name}"?`,
        details: token.revoked_at
          ? html`<p>This token was already revoked ${when(token.revoked_at)}.</p>`
          : html`<p>Programs using <code>${token.display_hint}</code> will get a 401 on their next call. This cannot be undone.</p>
              <p class="muted">Last used: ${when(token.last_used_at, 'never')}.</p>`,
        action: `${list}/${token.id}/revoke`,
        button: 'Revoke token',
        cancel: list,
      }),
    );
  });

  router.post('/:tokenId/revoke', async (req, res) => {
    await callWorker(deps.bus, req, revokeToken, { id: pathParam(req, 'tokenId') });
    res.redirect(303, `${workspacePath(sessionOf(req), '/tokens')}?notice=revoked`);
  });

  return router;
}
