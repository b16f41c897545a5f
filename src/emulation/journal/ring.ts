/**
 * A bounded buffer that keeps the newest `capacity` items: adding to a full ring drops the oldest, so a journal
 * that nobody reads costs a fixed amount of memory however long the server runs.
 */
export class Ring<T> {
  #items: (T | undefined)[] = [];
  #start = 0;
  #count = 0;
  #capacity: number;

  constructor(capacity: number) {
    this.#capacity = Math.max(0, capacity);
  }

  get capacity(): number {
    return this.#capacity;
  }

  get size(): number {
    return this.#count;
  }

  push(item: T): void {
    if (this.#capacity === 0) return;
    if (this.#items.length < this.#capacity) {
      this.#items.push(item);
      this.#count++;
      return;
    }
    const end = (this.#start + this.#count) % this.#capacity;
    this.#items[end] = item;
    if (this.#count === this.#capacity) this.#start = (this.#start + 1) % this.#capacity;
    else this.#count++;
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.#count; i++) out.push(this.#items[(this.#start + i) % this.#items.length] as T);
    return out;
  }

  /** Changes the capacity, keeping the newest items that fit. */
  resize(capacity: number): void {
    const next = Math.max(0, capacity);
    if (next === this.#capacity) return;
    const kept = next === 0 ? [] : this.toArray().slice(-next);
    this.#capacity = next;
    this.clear();
    for (const item of kept) this.push(item);
  }

  clear(): number {
    const removed = this.#count;
    this.#items = [];
    this.#start = 0;
    this.#count = 0;
    return removed;
  }
}
