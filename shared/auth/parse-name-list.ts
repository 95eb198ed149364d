import type { z } from 'zod';

/** Reads a comma- or space-separated list of names; unknown names are reported, not dropped. */
export function parseNameList<T extends string>(text: string, schema: z.ZodType<T>): { values: T[]; unknown: string[] } {
  const values: T[] = [];
  const unknown: string[] = [];
  for (const name of text.split(/[\s,]+/).filter(Boolean)) {
    const parsed = schema.safeParse(name);
    if (!parsed.success) unknown.push(name);
    else if (!values.includes(parsed.data)) values.push(parsed.data);
  }
  return { values, unknown };
}
