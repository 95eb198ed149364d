import type { RequestHandler } from 'express';

/**
 * `error_description` as RFC 6749 allows it (§4.1.2.1, §5.2; RFC 7591 §3.2.2 refers to it):
 * printable ASCII without `"` and `\`. Our descriptions quote the values they refuse, with
 * typographic marks in places, and a strict client library refuses an answer or a redirect
 * that carries others: quotes become ', accents and marks are dropped, anything else is ?.
 */
export function oauthErrorDescription(text: string): string {
  return text
    .replace(/["\u201c\u201d\u2018\u2019]/g, "'")
    .replace(/\\/g, '/')
    .replace(/\u2026/g, '...')
    .replace(/[\u2013\u2014]/g, '-')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
}

/** Applies {@link oauthErrorDescription} to every JSON answer of an endpoint (the SDK's handlers' and ours). */
export function describedInAscii(): RequestHandler {
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const description = (body as { error_description?: unknown } | null | undefined)?.error_description;
      return json(typeof description === 'string' ? { ...(body as object), error_description: oauthErrorDescription(description) } : body);
    };
    next();
  };
}
