/**
 * Workspace settings as this process last read them, by key (a workspace, or a workspace and
 * a kind of record). Each copy carries the workspace's `settings_version`, which Postgres
 * raises whenever one of them changes (migration 0012), so a statement made with a copy can
 * check that it is still current. Bounded: the oldest entries leave first.
 */
export class LastReadSettings<T extends { settings_version: number }> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly max = 10_000) {}

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  /** Keeps a copy just read and returns it, unless a newer one is held: reads that overlap may finish out of order. */
  remember(key: string, read: T): T {
    const held = this.entries.get(key);
    if (held && held.settings_version > read.settings_version) return held;
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, read);
    return read;
  }
}
