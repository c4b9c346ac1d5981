/**
 * A Map that forgets, beyond `capacity`, its oldest entry not read since it
 * was last passed over (a second chance, as in a clock cache): a read only
 * marks its entry, where moving it to the back of the Map on every read was
 * a twentieth of a payout's Node.js time.
 */
export class RecentMap<V> {
  private readonly entries = new Map<string, { value: V; read: boolean }>();
  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.read = true;
    return entry.value;
  }

  set(key: string, value: V): void {
    // Room is made before the new entry goes in, so it is never the one forgotten.
    if (!this.entries.delete(key) && this.entries.size >= this.capacity) this.evictOne();
    this.entries.set(key, { value, read: false });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** From the oldest: an entry read since it was last passed over goes to the back unread; the first unread one goes. */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (!entry.read) return;
      entry.read = false;
      this.entries.set(key, entry);
    }
  }
}
