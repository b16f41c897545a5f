import { notFound, type ResourceType } from "./errors.js";

/**
 * The common ground of every resource store: records of one project, keyed by id, private to the store.
 * Stores are seeded through the constructor and never share a record with the fixtures they came from (the
 * project deep-copies its document before seeding), so a test can always build a fresh world.
 */
export class RecordStore<T extends { id: string }> {
  readonly #resourceType: ResourceType;
  readonly #records = new Map<string, T>();

  constructor(resourceType: ResourceType, records: Iterable<T> = []) {
    this.#resourceType = resourceType;
    for (const record of records) this.#records.set(record.id, record);
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

  /** Inserts or replaces a record. */
  put(record: T): T {
    this.#records.set(record.id, record);
    return record;
  }

  delete(id: string): boolean {
    return this.#records.delete(id);
  }

  values(): IterableIterator<T> {
    return this.#records.values();
  }
}
