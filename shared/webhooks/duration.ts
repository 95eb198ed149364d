import { z } from 'zod';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** A duration as people write it in the environment: `500ms`, `5s`, `30m`, `2h`, `3d`. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  return Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
}

/** One duration, in milliseconds. */
export const Duration = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === null) {
    ctx.addIssue({ code: 'custom', message: `"${text}" is not a duration such as 500ms, 5s, 30m, 2h or 3d` });
    return z.NEVER;
  }
  return ms;
});

/** A comma-separated list of durations, in milliseconds. */
export const DurationList = z.string().transform((text, ctx) => {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  const ms = parts.map(parseDuration);
  const bad = parts.find((_, i) => ms[i] === null);
  if (parts.length === 0 || bad !== undefined) {
    ctx.addIssue({ code: 'custom', message: `must list durations such as 5s,5m,30m${bad === undefined ? '' : ` ("${bad}" is not one)`}` });
    return z.NEVER;
  }
  return ms as number[];
});
