import type { Request } from 'express';

/** The credential of `Authorization: Bearer <credential>`, or null when there is none. */
export function bearerCredential(req: Request): string | null {
  const header = req.get('authorization');
  if (!header) return null;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
