import type { RequestHandler } from 'express';
import { z } from 'zod';

/** The SDK's handlers put a failed zod parse into error_description as its JSON issue list. */
const ZodIssueList = z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).min(1);
const OAuthErrorBody = z.looseObject({ error: z.string(), error_description: z.string() });

type Issue = z.infer<typeof ZodIssueList>[number];

/** The issues a description lists, if it is such a JSON list. */
function issuesOf(description: string): Issue[] | undefined {
  if (!description.startsWith('[')) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(description);
  } catch {
    return undefined;
  }
  const issues = ZodIssueList.safeParse(json);
  return issues.success ? issues.data : undefined;
}

/** `redirect_uris.0: Invalid URL; client_name: Invalid input: expected string, received number`. */
function issueText(issues: Issue[]): string {
  return [...new Set(issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)))].join('; ');
}

/**
 * RFC 6749 §5.2 and RFC 7591 §3.2.2 make error_description human-readable text; the SDK's
 * register, token and revoke handlers (and their client check) send a pretty-printed JSON
 * array of zod issues instead. This rewrites such a description as one line naming each
 * parameter and what is wrong with it, and leaves every other answer as it is; when `codeOf`
 * gives every issue's parameter the same code, the error becomes that code. Installed in
 * front of the SDK's handler, so its rate limits and order of checks stay the same.
 */
export function readableSchemaErrors(codeOf: (path: Issue['path']) => string | undefined = () => undefined): RequestHandler {
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const error = OAuthErrorBody.safeParse(body);
      const issues = error.success ? issuesOf(error.data.error_description) : undefined;
      if (!error.success || !issues) return json(body);
      // Every issue about a parameter that has a code of its own (RFC 7591's invalid_redirect_uri): that code.
      const codes = new Set(issues.map((i) => codeOf(i.path)));
      const [code] = codes;
      return json({ ...error.data, ...(codes.size === 1 && code !== undefined && { error: code }), error_description: issueText(issues) });
    };
    next();
  };
}
