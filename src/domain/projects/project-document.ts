import { z } from "zod";
import { CLOCK_OFFSET_LIMIT_MS, clockRangeProblem } from "../../platform/clock.js";
import type { AnyCollection } from "../collection.js";
import { COLLECTIONS, type CollectionName, type CollectionNamed } from "./collections.js";
import { checkReferences } from "./references.js";
import { projectSettingsSchema } from "./settings.js";

export type { CollectionName } from "./collections.js";

export const PROJECT_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** A moment a project's clock stands at: within the range every stored instant derived from it stays valid in. */
const clockInstant = z.iso.datetime({ offset: true }).superRefine((value, context) => {
  const problem = clockRangeProblem(Date.parse(value));
  if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
});

/** Each collection as a document holds it: an array of its records, empty when left out. */
const collectionShapes = Object.fromEntries(
  COLLECTIONS.map((collection) => [collection.name, z.array(collection.schema).default([])]),
) as { [N in CollectionName]: z.ZodDefault<z.ZodArray<CollectionNamed<N>["schema"]>> };

/** A document's `project`: what is not in a collection (its id, name, settings, clock and seed). */
export const projectHeaderSchema = z.strictObject({
  id: z.string().regex(PROJECT_ID, "must be 1-63 lowercase letters, digits, - or _"),
  name: z.string().min(1).optional(),
  settings: projectSettingsSchema.default({}),
  /**
   * How far the project's clock runs ahead of (or behind) the server's, as the control API left it. An offset
   * rather than a moment, so a restored demo keeps moving with real time instead of freezing at the save.
   */
  clock: z
    .strictObject({
      /**
       * Enough to reach any moment of the clock's range from any other; a running clock that would show one
       * outside it stands still at the end it passed (see ProjectClock).
       */
      offset_ms: z.number().int().min(-CLOCK_OFFSET_LIMIT_MS).max(CLOCK_OFFSET_LIMIT_MS),
      /** Set while the clock stands still: the moment it shows (a frozen clock stays frozen across restarts). */
      frozen_at: clockInstant.optional(),
    })
    .default({ offset_ms: 0 }),
  /**
   * The project's own seed (given when it was created through the control API): every value the server makes
   * up for it follows from this, whatever the server's seed. Predictable by design: for tests only.
   */
  seed: z.string().min(1).max(200).optional(),
});

/**
 * Everything a project holds, in the service's shapes: the format of fixture folders, of state exports and of the
 * control API. The collections are the keys after `project`, in the list's order (projects/collections.ts); on
 * disk each lives in a file of its own (see fixtures/README).
 */
export const projectDocumentSchema = z
  .strictObject({
    project: projectHeaderSchema,
    ...collectionShapes,
  })
  .superRefine(checkReferences);

export type ProjectDocumentInput = z.input<typeof projectDocumentSchema>;
export type ProjectDocument = z.output<typeof projectDocumentSchema>;

/** The collections' names, in the list's order: the order a project's state is written and its stores built. */
export const COLLECTION_NAMES: readonly CollectionName[] = COLLECTIONS.map((collection) => collection.name);

/**
 * The collections whose records hold 64-bit integers (their descriptors' `exactIntegers`): integers past 2^53 are
 * kept exactly in these records, all of each record, and read as JSON.parse reads them everywhere else, so that
 * no other code meets a bigint (docs/internals/exact-integers.md).
 */
export const EXACT_COLLECTIONS: ReadonlySet<string> = new Set(
  (COLLECTIONS as readonly AnyCollection[])
    .filter((collection) => collection.exactIntegers)
    .map(({ name }) => name),
);
