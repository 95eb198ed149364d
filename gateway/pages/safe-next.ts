/** Where to go after signing in: a path on this site only, never another origin. */
export function safeNext(value: unknown, fallback = '/console'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}
