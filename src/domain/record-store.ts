import { STEP_ITEMS, type Steps } from "../platform/steps.js";
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

/** A store that can be filled with its records a step at a time, while it is built and before anyone reads it. */
export interface Seedable<T> {
  seed<R = T>(records: readonly R[], as?: (record: R) => T): Steps<void>;
}

/**
 * A collection's store built from its records (Collection.store): `store` made empty, then seeded a step at a
 * time (each record as `as` makes it, when given), so that a control call building a project lets other requests
 * run between the steps.
 */
export function* seeded<S extends Seedable<T>, T, R = T>(
  store: S,
  records: readonly R[],
  as?: (record: R) => T,
): Steps<S> {
  yield* store.seed(records, as);
  return store;
}

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
   * Adds records to the store while it is built, before anyone reads it, a few hundred between yields: first each
   * one (as `as` makes it, when given) under its id, then into each index, then into the subclass's own lists
   * (`seeded`), three passes as the constructor and `index` make them (an id given twice keeps its first place
   * and its last record, as a Map does). Nobody is told (no watcher or observer is set yet). Each step is a plain
   * method looping over its slice: at a million cards, a loop inside the generator or a callback per record
   * doubled the time of a build.
   */
  *seed<R = T>(records: readonly R[], as?: (record: R) => T): Steps<void> {
    if (this.#records.size > 0) throw new Error("seed is for a store being built, which holds no record yet");
    for (let start = 0; start < records.length; start += STEP_ITEMS) {
      this.#keyRange(records, start, Math.min(records.length, start + STEP_ITEMS), as);
      yield;
    }
    for (const { keyOf, map } of this.#indexes) {
      const values = this.#records.values();
      while (this.#indexSome(values, keyOf, map)) yield;
    }
    const values = this.#records.values();
    while (this.#seedSome(values)) yield;
  }

  #keyRange<R>(records: readonly R[], start: number, end: number, as: ((record: R) => T) | undefined): void {
    const map = this.#records;
    if (as === undefined)
      for (let i = start; i < end; i++) {
        const record = records[i] as unknown as T;
        map.set(record.id, record);
      }
    else
      for (let i = start; i < end; i++) {
        const record = as(records[i] as R);
        map.set(record.id, record);
      }
  }

  /** Up to a step's worth of records into an index; false once there are no more. */
  #indexSome(values: IterableIterator<T>, keyOf: KeyOf<T>, map: Map<string, T>): boolean {
    for (let n = 0; n < STEP_ITEMS; n++) {
      const next = values.next();
      if (next.done) return false;
      const key = keyOf(next.value);
      if (key) map.set(key, next.value);
    }
    return true;
  }

  /** Up to a step's worth of records told to the subclass (`seeded`); false once there are no more. */
  #seedSome(values: IterableIterator<T>): boolean {
    for (let n = 0; n < STEP_ITEMS; n++) {
      const next = values.next();
      if (next.done) return false;
      this.seeded(next.value);
    }
    return true;
  }

  /** A record `seed` added, new to the store: what a subclass keeps besides the records and indexes. */
  protected seeded(_record: T): void {}

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
