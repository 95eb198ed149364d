import { CrmError, UnavailableError } from '../../shared/errors.js';
import { settingsChanged } from './settings-version.js';

/** Settings that change twice while a call runs are read a third time; more is a fault. */
const ATTEMPTS = 3;

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

  /**
   * Runs `use` with the copy held for `key` (`load`, which should remember what it reads,
   * the first time), sparing the round trip that reads the settings. With `check`, each of
   * its statements must hold only while the copy is current (`settingsStillAt`): Postgres
   * raises when the settings moved on, and `use` runs again with a fresh copy. A refusal
   * made with a copy that turns out stale (a phone read in the old default country, a
   * cursor whose day was read in the old time zone) is made again the same way. Inside a
   * transaction the raise would abort it, so there the copy is read first and not checked.
   */
  async use<R>(key: string, load: () => Promise<T>, options: { inTransaction: boolean }, use: (settings: T, check: boolean) => Promise<R>): Promise<R> {
    if (options.inTransaction) return use(await load(), false);
    let settings = this.get(key) ?? (await load());
    for (let attempt = 1; ; attempt++) {
      try {
        return await use(settings, true);
      } catch (error) {
        const stale = settingsChanged(error);
        if (!stale && !(error instanceof CrmError)) throw error;
        // Settings that keep changing (a script defining fields) are worth a retry by the client, not a 500.
        if (attempt === ATTEMPTS) throw stale ? new UnavailableError('The workspace settings changed while the call was made. Retry shortly.') : error;
        const current = await load();
        if (!stale && current.settings_version === settings.settings_version) throw error;
        settings = current;
      }
    }
  }
}
