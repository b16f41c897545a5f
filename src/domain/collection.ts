import type { z } from "zod";
import type { Steps } from "../platform/steps.js";
import type { ProjectSettings } from "./projects/settings.js";
import type { KeySet } from "./record-store.js";

/**
 * A stored collection of a project, declared once, in its resource's folder (`campaigns/collection.ts`), and
 * listed once, in `projects/collections.ts`. Everything else that knows collections derives from that list: the
 * project document's schema and its order (exports, state files), the stores a project builds, the change watch,
 * the state file's replay, the reference checks and the control API's read-only views. See
 * docs/internals/adding-a-collection.md.
 */
export interface Collection<N extends string = string, S extends z.ZodType = z.ZodType, Store = unknown> {
  /** The key in a project document, the file of a fixtures folder (`tier-structures.json`), a state file's `c`. */
  readonly name: N;
  /** One record as a document holds it; the document holds an array of them, empty when left out. */
  readonly schema: S;
  /** What its store's not-found errors name (`resource_type`: `vl_tier_structure`). */
  readonly resourceType: string;
  /** What one record is called in a reference check's message (`no campaign with id ...`). */
  readonly label: string;
  /**
   * The field of a document record its store keys it by, unique in the collection: what the change watch
   * reports and a state file's log lines name (`id`; an API key's `app_id`, a token's `access_token`).
   */
  readonly key: string;
  /** Other fields no two records of the collection may share (a card's `code`). */
  readonly unique?: readonly string[];
  /** Fields that name a record of another collection (see Reference). */
  readonly references?: readonly Reference[];
  /**
   * Its records hold the service's 64-bit integers (shared/int64.ts): integers past 2^53 in them, metadata
   * included, are kept exactly wherever they are read (bodies, fixtures, state files, imports).
   */
  readonly exactIntegers?: boolean;
  /**
   * Rules within a record that are not references (a tier's range against its structure's other tiers), some of
   * them set by the project's settings (its `tier_limit`).
   */
  readonly check?: (
    records: readonly z.output<S>[],
    problem: (path: Path, message: string) => void,
    settings: ProjectSettings,
  ) => void;
  /**
   * Builds the project's store from the document's records (frozen: the store shares them and only ever replaces
   * them), a step at a time: a generator that yields every few hundred records and returns the store (`seeded`
   * in record-store.ts does it for a store with `seed`), so that a control call building a project of a million
   * cards lets other requests run between steps. `built` has the collections listed before it: a card's store
   * reads its campaign from theirs.
   */
  readonly store: (records: readonly z.output<S>[], built: Built) => Steps<Store>;
  /** The store's records back in document form, keyed by `key`; a RecordStore's own records by default. */
  readonly document?: (store: Store) => CollectionView;
  /**
   * The sets of values the store holds already, by field (its ids, a unique index), each built from exactly
   * the records it was built from: a restart checks a million cards' references against them, not new sets.
   */
  readonly keySets?: (store: Store) => Readonly<Record<string, KeySet>>;
  /** The control API's read-only view of it (`GET /__mock/projects/{id}/tier-structures`); none without. */
  readonly view?: ViewSettings<Store>;
}

/** Any collection of the list, whatever its types. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds collections of every store type.
export type AnyCollection = Collection<string, z.ZodType, any>;

/** A path in a document: keys and array indexes (`["vouchers", 3, "campaign_id"]`). */
export type Path = (string | number)[];

/** What a store builder is given besides its records. */
interface Built {
  /** The collection's own resource type, for its store's errors. */
  readonly resourceType: string;
  /** The records of another collection of the same document. */
  records(name: string): readonly unknown[];
  /** The store of a collection listed before this one. */
  store(name: string): unknown;
}

/**
 * A field that names a record of another collection. `field` is a path in the record: dot-separated keys, `[]`
 * for every element of an array (`customer_ids[]`, `tiers[].qualification_rules.segment.id`). An unset value
 * (null, undefined) names nothing. `by` is the field of the other collection it names, its key by default; a
 * field other than the key must be one of its `unique` fields.
 */
export interface Reference {
  readonly field: string;
  readonly to: string;
  readonly by?: string;
}

/** One collection of a project in document form, keyed as its store reports changes (see Project.watch). */
export interface CollectionView {
  get(key: string): unknown;
  entries(): Iterable<[string, unknown]>;
  /** The records alone, in the same order, where the store holds them as the document does (no pairs made). */
  values?(): Iterable<unknown>;
}

/** What the control API's view of a collection may be asked; the store's list, find and get answer the rest. */
interface ViewSettings<Store> {
  /** The name of its records' schema in the control API's OpenAPI document (components/schemas). */
  readonly component: string;
  /** Its records' schema as stored, when not the collection's (a campaign is stored before its transform). */
  readonly schema?: z.ZodType;
  /** Top-level fields a list may be filtered by (`?holder_id=cust_...`), compared as text. */
  readonly filters: readonly string[];
  /** Another unique key a single record may be fetched by, besides its id (a card's code). */
  readonly alternateKey?: (store: Store, key: string) => object | undefined;
  /**
   * The records a list's filters can only match, read from an index instead of a scan of every record, in the
   * order a scan finds them; undefined when the filters name no index (or it cannot promise that order).
   */
  readonly narrow?: (store: Store, filters: ReadonlyMap<string, string>) => object[] | undefined;
}

/** Declares a collection, its types inferred (the list in projects/collections.ts keeps each one's own). */
export function collection<const N extends string, S extends z.ZodType, Store>(
  declared: Collection<N, S, Store>,
): Collection<N, S, Store> {
  return declared;
}
