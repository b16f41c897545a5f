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
export class RecordGroups<R extends object> {
  /** key -> its one record, or its records: most groups hold one (a customer's card), kept without an array. */
  readonly #groups = new Map<string, R | R[]>();
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
      if (!this.#replace(before, previous as R, next as R)) this.#disordered.add(before);
      return;
    }
    if (before !== undefined && !this.#remove(before, previous as R)) this.#disordered.add(before);
    if (after === undefined) return;
    const group = this.#groups.get(after);
    if (group === undefined) this.#groups.set(after, next as R);
    else {
      if (Array.isArray(group)) group.push(next as R);
      else this.#groups.set(after, [group, next as R]);
      if (previous !== undefined) this.#disordered.add(after);
    }
  }

  /** The group's records in the store's order (empty when none). Read only. */
  list(key: string): readonly R[] {
    if (this.#disordered.delete(key)) {
      const group: R[] = [];
      for (const record of this.#scan()) if (this.#keyOf(record) === key) group.push(record);
      this.#groups.delete(key);
      if (group.length > 0) this.#groups.set(key, group.length === 1 ? (group[0] as R) : group);
    }
    const group = this.#groups.get(key);
    return group === undefined ? NONE : Array.isArray(group) ? group : [group];
  }

  #replace(key: string, previous: R, next: R): boolean {
    const group = this.#groups.get(key);
    if (group === previous) this.#groups.set(key, next);
    else if (Array.isArray(group) && group.includes(previous)) group[group.indexOf(previous)] = next;
    else return false;
    return true;
  }

  #remove(key: string, record: R): boolean {
    const group = this.#groups.get(key);
    if (group === record) this.#groups.delete(key);
    else if (Array.isArray(group) && group.includes(record)) {
      group.splice(group.indexOf(record), 1);
      if (group.length === 1) this.#groups.set(key, group[0] as R);
    } else return false;
    if (!this.#groups.has(key)) this.#disordered.delete(key);
    return true;
  }
}
