/**
 * JSON with every object's keys sorted (recursively), so equal values give equal text
 * whatever order their keys were written in: for hashes of inputs and filters. Keys whose
 * value is undefined are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}
