/**
 * A project's customers in the order they came, for a search that walks them newest first (the dashboard's
 * customer search: the person who just joined is the one a presenter looks for). A store keeps its records in a
 * Map, which walks only oldest first; this keeps their ids in an array, made the first time a search asks (a
 * project nobody searches pays nothing) and then kept up as customers are put: a new one goes last. A customer
 * deleted (no operation deletes one) has the array made again at the next search.
 */
export class CustomerOrder<C extends { readonly id: string }> {
  #ids: string[] | undefined;
  readonly #scan: () => Iterable<C>;
  readonly #find: (id: string) => C | undefined;

  /** `scan`: the store's records in its order; `find`: a record by id, as stored now. */
  constructor(scan: () => Iterable<C>, find: (id: string) => C | undefined) {
    this.#scan = scan;
    this.#find = find;
  }

  /** A customer put (`previous` undefined for one new to the store) or deleted (`next` undefined). */
  change(previous: C | undefined, next: C | undefined): void {
    if (this.#ids === undefined) return;
    if (next === undefined) this.#ids = undefined;
    else if (previous === undefined) this.#ids.push(next.id);
  }

  /** The customers as stored now, newest first; a walk stops wherever its reader stops reading. */
  *newestFirst(): Generator<C> {
    if (this.#ids === undefined) {
      const ids: string[] = [];
      for (const record of this.#scan()) ids.push(record.id);
      this.#ids = ids;
    }
    const ids = this.#ids;
    for (let i = ids.length - 1; i >= 0; i--) {
      const record = this.#find(ids[i] as string);
      if (record !== undefined) yield record;
    }
  }
}
