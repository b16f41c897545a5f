import type { Steps } from "../../platform/steps.js";
import type { AnyCollection, CollectionView } from "../collection.js";
import type { RecordWatcher } from "../record-store.js";
import { COLLECTIONS, type CollectionName, type CollectionNamed } from "./collections.js";
import type { ProjectDocument } from "./project-document.js";

export type { CollectionView } from "../collection.js";

/** What a collection's `store` builds, step by step. */
type StoreOf<N extends CollectionName> =
  ReturnType<CollectionNamed<N>["store"]> extends Steps<infer S> ? S : never;

/** A project's stores, one for each collection of its document, each of the type its collection builds. */
export type ProjectStores = { [N in CollectionName]: StoreOf<N> };

/** A collection's name in camel case: `tier_structures` is `tierStructures`. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/** Each store as a field of the project, named for its collection in camel case (`project.tierStructures`). */
export type StoreFields = { readonly [N in CollectionName as Camel<N>]: ProjectStores[N] };

/** The project's field for a collection's store (see StoreFields). */
export function fieldOf(name: CollectionName): string {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

const LISTED: readonly AnyCollection[] = COLLECTIONS;
const BY_NAME = new Map(LISTED.map((collection) => [collection.name, collection]));

/** The collection of this name; undefined for a name no collection has. */
export function collectionNamed(name: string): AnyCollection | undefined {
  return BY_NAME.get(name);
}

/** What a default view reads of a record store; structural, so every store's record type fits. */
interface StoredRecords {
  stored(id: string): { id: string } | undefined;
  storedValues(): IterableIterator<{ id: string }>;
}

/** A RecordStore's records as the document has them: as they are stored, keyed by id. */
function recordView(store: StoredRecords): CollectionView {
  return {
    get: (key: string) => store.stored(key),
    *entries(): Iterable<[string, unknown]> {
      for (const record of store.storedValues()) yield [record.id, record];
    },
    values: () => store.storedValues(),
  };
}

/**
 * A project's stores, built from its (frozen) document in the list's order, a step at a time: the stores share
 * its records.
 */
export function* buildStores(document: ProjectDocument): Steps<ProjectStores> {
  const records = (name: string) => ((document as Record<string, unknown>)[name] ?? []) as readonly unknown[];
  const stores: Record<string, unknown> = {};
  for (const collection of LISTED)
    stores[collection.name] = yield* collection.store(records(collection.name), {
      resourceType: collection.resourceType,
      records,
      store: (name) => stores[name],
    });
  return stores as ProjectStores;
}

/** Tells `watcher` of every record each store puts or deletes; undefined stops the reports. */
export function watchStores(
  stores: ProjectStores,
  watcher: ((collection: CollectionName, key: string, deleted: boolean) => void) | undefined,
): void {
  for (const { name } of COLLECTIONS) {
    const store: { watch(watcher: RecordWatcher | undefined): void } = stores[name];
    store.watch(watcher && ((key, deleted) => watcher(name, key, deleted)));
  }
}

/**
 * The field a collection's document records are keyed by (its descriptor's `key`): what the change watch reports
 * and a state file's lines name.
 */
export function keyFieldOf(name: CollectionName): string {
  return BY_NAME.get(name)?.key ?? "id";
}

/** How many records each store holds, by collection, in the list's order: what the control API's counts show. */
export function storeCounts(stores: ProjectStores): Record<CollectionName, number> {
  const counts = {} as Record<CollectionName, number>;
  for (const { name } of COLLECTIONS) counts[name] = (stores[name] as { size: number }).size;
  return counts;
}

/** A collection's records as the project document has them, one at a time. */
export function storeView(stores: ProjectStores, name: CollectionName): CollectionView {
  const store = stores[name];
  const collection = BY_NAME.get(name);
  return collection?.document?.(store) ?? recordView(store as unknown as StoredRecords);
}
