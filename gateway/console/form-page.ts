/**
 * The page a console form was posted from (`/console/…`, its query kept), to come back to after
 * signing in again when the session ended while the form was open: most forms post to their own
 * page; a note, an endpoint's actions, the password change and a stage's addition or move post
 * to a path below theirs, which has no page of its own, and so does making a pipeline the default.
 */
export function pageOfForm(url: string): string {
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  const query = at === -1 ? '' : url.slice(at);
  const page = path
    .replace(/^(\/console\/w\/[^/]+\/(?:contacts|deals)\/[^/]+)\/notes\/?$/i, '$1')
    .replace(/^(\/console\/w\/[^/]+\/webhooks\/[^/]+)\/(?:test|status|deliveries\/[^/]+\/retry)\/?$/i, '$1')
    .replace(/^(\/console\/account)\/password\/?$/i, '$1')
    .replace(/^(\/console\/w\/[^/]+\/pipelines)\/[^/]+\/(?:stages(?:\/[^/]+\/position)?|default)\/?$/i, '$1');
  return page + query;
}
