import type { z } from "zod";
import type { AnyCollection } from "../../domain/collection.js";
import { COLLECTIONS } from "../../domain/projects/collections.js";
import type { Project } from "../../domain/projects/project.js";

/** What a view reads of a store: any RecordStore fits. */
interface ReadableStore {
  readonly size: number;
  find(id: string): object | undefined;
  get(id: string): object;
  /** The records as stored, in order: what a list walks, filtering on the stored fields. */
  storedValues(): Iterable<object>;
  /** A stored record as the view shows it, when the store fills in derived parts on read (a card). */
  completed?(record: object): object;
}

export interface View {
  /** The path segment (`tier-structures`); its collection's name is the list's data_ref. */
  name: string;
  /** The collection's name: the list's data_ref. */
  collection: string;
  /** The name of its records' schema in the OpenAPI document (components/schemas). */
  component: string;
  /** Its records' schema, as stored. */
  schema: z.ZodType;
  store: (project: Project) => ReadableStore;
  /** Top-level fields a list may be filtered by (`?holder_id=cust_...`), compared as text. */
  filters: readonly string[];
  /** Another unique key a single record may be fetched by, besides its id. */
  alternateKey?: (project: Project, key: string) => object | undefined;
  /** The records a list's filters can only match, from an index (see ViewSettings.narrow). */
  narrow?: (project: Project, filters: ReadonlyMap<string, string>) => object[] | undefined;
}

function viewOf(collection: AnyCollection): View[] {
  const settings = collection.view;
  if (!settings) return [];
  const store = (project: Project) => project.stores[collection.name as keyof Project["stores"]];
  const { alternateKey, narrow } = settings;
  return [
    {
      name: collection.name.replaceAll("_", "-"),
      collection: collection.name,
      component: settings.component,
      schema: settings.schema ?? collection.schema,
      store: (project) => store(project) as unknown as ReadableStore,
      filters: settings.filters,
      ...(alternateKey && { alternateKey: (project, key) => alternateKey(store(project), key) }),
      ...(narrow && { narrow: (project, filters) => narrow(store(project), filters) }),
    },
  ];
}

/**
 * Read-only views of a project's data, in the service's shapes, for tests that assert on what an operation did
 * (a customer created, a card published, points earned, an event recorded) without exporting the whole state:
 * one for each collection that declares its view settings, in the list's order (domain/projects/collections.ts).
 */
export const VIEWS: readonly View[] = (COLLECTIONS as readonly AnyCollection[]).flatMap(viewOf);
