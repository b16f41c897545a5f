import { notFound } from "./errors.js";

type KeyOf<T> = (record: T) => string | null | undefined;

/** The values a store holds under one key, read only: what the reference check of a restart asks of it. */
export interface KeySet {
  readonly size: number;
  has(value: string): boolean;
}

/** Told the id of every record a store puts or deletes: how the state file learns what a write changed. */
export type RecordWatcher = (id: string, deleted: boolean) => void;

/**
 * Told the record a store held and the one it holds now, on every put (`previous` undefined for an id new to the
 * store) and delete (`next` undefined): how figures kept beside the records (domain/figures) follow them.
 */
export type RecordObserver<T> = (previous: T | undefined, next: T | undefined) => void;

/**
 * The common ground of every resource store: records of one project, keyed by id, private to the store, plus any
 * unique secondary keys a resource is looked up by (a voucher's code, a customer's source_id). Stores are seeded
 * through the constructor and never share a record with the fixtures they came from (the project deep-copies its
 * document before seeding), so a test can always build a fresh world.
 */
export class RecordStore<T extends { id: string }> {
  readonly #resourceType: string;
  readonly #records = new Map<string, T>();
  readonly #indexes: { keyOf: KeyOf<T>; map: Map<string, T>; lookup: (key: string) => T | undefined }[] = [];
  #watcher: RecordWatcher | undefined;
  #observer: RecordObserver<T> | undefined;

  /** `resourceType`: what its not-found errors name, as its collection declares it (domain/collection.ts). */
  constructor(resourceType: string, records: Iterable<T> = []) {
    this.#resourceType = resourceType;
    for (const record of records) this.#records.set(record.id, record);
  }

  /**
   * Adds a unique secondary key and returns its lookup. Subclasses declare them as fields
   * (`readonly findByCode = this.index((v) => v.code)`); records without the key are not indexed.
   */
  protected index(keyOf: KeyOf<T>): (key: string) => T | undefined {
    const map = new Map<string, T>();
    for (const record of this.#records.values()) {
      const key = keyOf(record);
      if (key) map.set(key, record);
    }
    const lookup = (key: string) => map.get(key);
    this.#indexes.push({ keyOf, map, lookup });
    return lookup;
  }

  /** The keys of a secondary index (a lookup `index` returned), as a read-only set. */
  keysOf(lookup: (key: string) => T | undefined): KeySet {
    const map = this.#indexes.find((entry) => entry.lookup === lookup)?.map;
    if (!map) throw new Error("not an index of this store");
    return {
      get size() {
        return map.size;
      },
      has: (value) => map.has(value),
    };
  }

  /** One watcher per store (the project's); seeding in the constructor is not reported, later writes are. */
  watch(watcher: RecordWatcher | undefined): void {
    this.#watcher = watcher;
  }

  /**
   * One observer per store besides the watcher (the project's figures, set once when it is built, and kept when
   * the state file's watcher comes and goes); seeding is not reported. Undefined stops the reports.
   */
  observe(observer: RecordObserver<T> | undefined): void {
    this.#observer = observer;
  }

  /** The record as stored, without what a subclass's `find` derives: what a state file writes. */
  stored(id: string): T | undefined {
    return this.#records.get(id);
  }

  /** The record with this id; a typed not-found error (404 in the service's shape) when there is none. */
  get(id: string): T {
    const record = this.#records.get(id);
    if (record === undefined) throw notFound(this.#resourceType, id);
    return record;
  }

  find(id: string): T | undefined {
    return this.#records.get(id);
  }

  has(id: string): boolean {
    return this.#records.has(id);
  }

  list(): T[] {
    return [...this.#records.values()];
  }

  get size(): number {
    return this.#records.size;
  }

  /** Inserts or replaces a record, keeping the secondary keys in step. */
  put(record: T): T {
    const previous = this.#records.get(record.id);
    this.#unindex(previous);
    this.#records.set(record.id, record);
    for (const { keyOf, map } of this.#indexes) {
      const key = keyOf(record);
      if (key) map.set(key, record);
    }
    this.#watcher?.(record.id, false);
    this.#observer?.(previous, record);
    return record;
  }

  /** Deletes the record with this id and answers it; the typed not-found error, changing nothing, when none. */
  remove(id: string): T {
    const record = this.get(id);
    this.delete(id);
    return record;
  }

  delete(id: string): boolean {
    const previous = this.#records.get(id);
    this.#unindex(previous);
    const deleted = this.#records.delete(id);
    if (deleted) {
      this.#watcher?.(id, true);
      this.#observer?.(previous, undefined);
    }
    return deleted;
  }

  /** The records as stored, in order (see `stored`). */
  storedValues(): IterableIterator<T> {
    return this.#records.values();
  }

  values(): IterableIterator<T> {
    return this.#records.values();
  }

  #unindex(record: T | undefined): void {
    if (!record) return;
    for (const { keyOf, map } of this.#indexes) {
      const key = keyOf(record);
      if (key && map.get(key) === record) map.delete(key);
    }
  }
}
