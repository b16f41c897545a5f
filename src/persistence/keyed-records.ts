const DELETED = Symbol("deleted");

/**
 * One collection of a state being rebuilt by the replay: its records in store order, found by key only once a
 * line needs to (a log's put or del). Every line of a snapshot names a key no earlier line has (a store holds
 * each once), so a million of them are appended without an index, and the array goes to the project as it is;
 * a collection the logs never touch is never indexed at all.
 */
export class KeyedRecords {
  readonly #keyOf: (record: unknown) => string;
  readonly #records: unknown[];
  #index: Map<string, number> | undefined;
  #deleted = 0;

  /** `records` becomes this collection's own array: pass a copy of one that must not change. */
  constructor(keyOf: (record: unknown) => string, records: unknown[] = []) {
    this.#keyOf = keyOf;
    this.#records = records;
  }

  /** A record under a key no other record here has (a snapshot's line). */
  append(record: unknown): void {
    this.#index?.set(this.#keyOf(record), this.#records.length);
    this.#records.push(record);
  }

  /** Writes the record under `key`: in its place when the key is here, at the end otherwise (as a Map would). */
  set(key: string, record: unknown): void {
    const index = this.#indexed();
    const at = index.get(key);
    if (at !== undefined) {
      this.#records[at] = record;
      return;
    }
    index.set(key, this.#records.length);
    this.#records.push(record);
  }

  delete(key: string): void {
    const index = this.#indexed();
    const at = index.get(key);
    if (at === undefined) return;
    index.delete(key);
    this.#records[at] = DELETED;
    this.#deleted += 1;
  }

  /** The records in order; the collection's own array when nothing was deleted (the replay is done with it). */
  values(): unknown[] {
    return this.#deleted === 0 ? this.#records : this.#records.filter((record) => record !== DELETED);
  }

  #indexed(): Map<string, number> {
    if (this.#index) return this.#index;
    const index = new Map<string, number>();
    this.#records.forEach((record, i) => {
      if (record !== DELETED) index.set(this.#keyOf(record), i);
    });
    this.#index = index;
    return index;
  }
}
