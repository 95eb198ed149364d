/**
 * The ids of the last events printed, at most `capacity`: the stream stores an event twice
 * when the relay publishes it again after the duplicate window (Postgres down right after a
 * publish), and a tail prints it once, as the polling mode does.
 */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity: number) {}

  /** True the first time an id is seen (among the last `capacity`). */
  firstSight(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    // A Set iterates in insertion order: the oldest id leaves first.
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }
}
