const NONE: readonly never[] = [];

/**
 * Records of one store grouped by a key (a customer's publications, events or loyalty cards), each group in the
 * store's own order, which is the order the views list them in: a customer's story reads her group, not the store.
 *
 * A store keeps a record where it first put its id (a Map's order), and a record new to the store goes last, so a
 * new record goes last in its group too. A record that was in the store already and comes into a group that holds
 * others (an open card handed to a customer who has a card) has a place in the store the group cannot know: the
 * group is marked, and read again in order from one pass over the store the next time it is asked for. No operation
 * does that but a customer joining a second program; every other write is a new record or one replaced in place.
 */
export class RecordGroups<R> {
  readonly #groups = new Map<string, R[]>();
  readonly #disordered = new Set<string>();
  readonly #keyOf: (record: R) => string | undefined;
  readonly #scan: () => Iterable<R>;

  /** `keyOf`: the group a record belongs in, if any; `scan`: the store's records in its order. */
  constructor(keyOf: (record: R) => string | undefined, scan: () => Iterable<R>) {
    this.#keyOf = keyOf;
    this.#scan = scan;
  }

  /** A record put (`next`, replacing `previous` when its id was held) or deleted (`next` undefined). */
  change(previous: R | undefined, next: R | undefined): void {
    const before = previous === undefined ? undefined : this.#keyOf(previous);
    const after = next === undefined ? undefined : this.#keyOf(next);
    if (before !== undefined && before === after) {
      const group = this.#groups.get(before);
      const i = group === undefined ? -1 : group.indexOf(previous as R);
      if (group !== undefined && i >= 0) group[i] = next as R;
      else this.#disordered.add(before);
      return;
    }
    if (before !== undefined) this.#remove(before, previous as R);
    if (after === undefined) return;
    const group = this.#groups.get(after);
    if (group === undefined) this.#groups.set(after, [next as R]);
    else {
      group.push(next as R);
      if (previous !== undefined) this.#disordered.add(after);
    }
  }

  /** The group's records in the store's order (empty when none). Read only: the group's own array. */
  list(key: string): readonly R[] {
    if (this.#disordered.delete(key)) {
      const group: R[] = [];
      for (const record of this.#scan()) if (this.#keyOf(record) === key) group.push(record);
      if (group.length > 0) this.#groups.set(key, group);
      else this.#groups.delete(key);
    }
    return this.#groups.get(key) ?? NONE;
  }

  #remove(key: string, record: R): void {
    const group = this.#groups.get(key);
    const i = group === undefined ? -1 : group.indexOf(record);
    if (group === undefined || i < 0) {
      this.#disordered.add(key);
      return;
    }
    group.splice(i, 1);
    if (group.length === 0) {
      this.#groups.delete(key);
      this.#disordered.delete(key);
    }
  }
}
