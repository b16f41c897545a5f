/**
 * Ids in the order they were added, whose owner says which are still here: `entry(id)` answers an id's record
 * while it belongs in the queue and `undefined` once it has left. An id leaves without telling the queue, and
 * adding and taking the first one still here are O(1) amortised.
 *
 * A campaign's open cards at a million cards: a map of each id's place in the queue cost about 29 MiB, and the
 * store already knows whether a card is open. What the map answered is kept for the few ids that need it: an id
 * added after the queue was seeded (a card put back, or a new one) may have an older slot still in the array, so
 * its current place is kept aside (`#placed`) and any other slot of it is dead. Seeded ids, a million of them,
 * have one slot each and nothing aside.
 *
 * A Set keeps insertion order too, but V8 leaves a deleted entry in place until the table is rebuilt, and
 * iteration walks over every such hole: taking cards from the front of a big campaign one by one made each pick
 * cost more than the last (about 6.6 µs after 20,000 assignments). Here the head moves past dead slots at the
 * front as iteration meets them, and the array drops its dead front once that is most of it.
 */
export class IdQueue<T> implements Iterable<T> {
  readonly #entry: (id: string) => T | undefined;
  #ids: string[] = [];
  /** Index in #ids of the first slot that may be live; every slot before it is dead. */
  #head = 0;
  /** How many slots have been dropped from the front: a slot's position is its index in #ids plus this. */
  #dropped = 0;
  /** id -> position of its one live slot, for ids added after seeding; their other slots are dead. */
  readonly #placed = new Map<string, number>();

  constructor(entry: (id: string) => T | undefined) {
    this.#entry = entry;
  }

  /** Queues an id with no slot here yet: a store seeding from its own ids, each once, before any `add`. */
  seed(id: string): void {
    this.#ids.push(id);
  }

  /**
   * Queues an id that has just come to belong here and did not belong a moment before (a card put back, or
   * new), last, whatever slot it had before.
   */
  add(id: string): void {
    this.#placed.set(id, this.#ids.length + this.#dropped);
    this.#ids.push(id);
  }

  /** The records of the ids still here, in the order they were added. */
  *[Symbol.iterator](): Generator<T> {
    // Drop the dead front once it is most of the array: each slot is copied at most once per time it is dropped,
    // so the cost per id taken stays constant.
    if (this.#head >= 1024 && this.#head * 2 >= this.#ids.length) {
      this.#ids = this.#ids.slice(this.#head);
      this.#dropped += this.#head;
      this.#head = 0;
    }
    const ids = this.#ids;
    for (let i = this.#head; i < ids.length; i++) {
      const id = ids[i] as string;
      const position = i + this.#dropped;
      const placed = this.#placed.get(id);
      const entry = placed === undefined || placed === position ? this.#entry(id) : undefined;
      if (entry !== undefined) yield entry;
      else if (i === this.#head) {
        // A dead slot stays dead: an id that comes back is added again, at a new position.
        this.#head++;
        if (placed === position) this.#placed.delete(id);
      }
    }
  }
}
