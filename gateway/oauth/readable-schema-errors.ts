import type { RequestHandler } from 'express';
import { z } from 'zod';

/** The SDK's handlers put a failed zod parse into error_description as its JSON issue list. */
const ZodIssueList = z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).min(1);
const OAuthErrorBody = z.looseObject({ error: z.string(), error_description: z.string() });

/** `redirect_uris.0: Invalid URL; client_name: Invalid input: expected string, received number`. */
function issueText(description: string): string | undefined {
  if (!description.startsWith('[')) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(description);
  } catch {
    return undefined;
  }
  const issues = ZodIssueList.safeParse(json);
  if (!issues.success) return undefined;
  return [...new Set(issues.data.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)))].join('; ');
}

/**
 * RFC 6749 §5.2 and RFC 7591 §3.2.2 make error_description human-readable text; the SDK's
 * register, token and revoke handlers (and their client check) send a pretty-printed JSON
 * array of zod issues instead. This rewrites such a description as one line naming each
 * parameter and what is wrong with it, and leaves every other answer as it is. Installed in
 * front of the SDK's handler, so its rate limits and order of checks stay the same.
 */
export function readableSchemaErrors(): RequestHandler {
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const error = OAuthErrorBody.safeParse(body);
      const text = error.success ? issueText(error.data.error_description) : undefined;
      return json(text === undefined || !error.success ? body : { ...error.data, error_description: text });
    };
    next();
  };
}
