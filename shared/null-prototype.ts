/**
 * An empty object for values looked up by keys that users choose (custom field keys, query
 * fields): with no prototype, a key such as `constructor` or `__proto__` is just a key, never
 * something every object inherits, and JSON serializes it as any other object.
 */
export function nullPrototypeRecord<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}
