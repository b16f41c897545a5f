import { z } from "zod";
import { STEP_ITEMS, type Steps } from "../../platform/steps.js";
import type { AnyCollection } from "../collection.js";
import { COLLECTIONS } from "./collections.js";
import { type ProjectDocument, projectDocumentSchema, projectHeaderSchema } from "./project-document.js";
import { checkReferencesInSteps } from "./references.js";

/** The first problem the whole schema's parse reports (with its path in the document), or the document parsed. */
export type StepsParse = { ok: true; value: ProjectDocument } | { ok: false; issue: z.core.$ZodIssue };

const LISTED: readonly AnyCollection[] = COLLECTIONS;

/**
 * The document's frame, as projectDocumentSchema checks it: the root strict and `project` whole. Its collections
 * are looked at one by one after it (an array of a million elements, even of z.unknown(), is parsed in one call).
 */
const frameSchema = z.strictObject({
  project: projectHeaderSchema,
  ...Object.fromEntries(LISTED.map((collection) => [collection.name, z.unknown()])),
});

/** Each collection's own schema in the document (`z.array(...).default([])`): what a value that is no array is told. */
const collectionSchemas = projectDocumentSchema.shape as unknown as Record<string, z.ZodType>;

/**
 * projectDocumentSchema's parse, a step at a time (a few hundred records between yields), for a document the
 * control API is given (an import, a posted project): the same value, or the same first problem, as
 * `projectDocumentSchema.safeParse` (test/fuzz/documents.test.ts compares the two). zod reports the root's
 * own type, then `project`, then each collection in the list's order and its records in theirs, then the keys the
 * root does not know; the reference checks only when none of those found a problem.
 */
export function* parseDocumentInSteps(input: unknown): Steps<StepsParse> {
  const frame = frameSchema.safeParse(input);
  const issues = frame.success ? [] : frame.error.issues;
  const first = (test: (issue: z.core.$ZodIssue) => boolean) => issues.find(test);
  const rootOrProject = first(
    (issue) => (issue.path.length === 0 && issue.code !== "unrecognized_keys") || issue.path[0] === "project",
  );
  if (rootOrProject) return { ok: false, issue: rootOrProject };
  const root = input as Record<string, unknown>;
  const document: Record<string, unknown> = { project: projectHeaderSchema.parse(root.project) };
  for (const collection of LISTED) {
    const given = root[collection.name];
    if (given !== undefined && !Array.isArray(given)) {
      // Refused before any element is looked at: the issue the document's schema gives it, at its path.
      const refused = (collectionSchemas[collection.name] as z.ZodType).safeParse(given);
      const issue = refused.error?.issues[0] as z.core.$ZodIssue;
      return { ok: false, issue: { ...issue, path: [collection.name, ...issue.path] } };
    }
    const records = (given ?? []) as readonly unknown[];
    const parsed: unknown[] = [];
    for (let start = 0; start < records.length; start += STEP_ITEMS) {
      const problem = parseRange(
        collection,
        records,
        start,
        Math.min(records.length, start + STEP_ITEMS),
        parsed,
      );
      if (problem) return { ok: false, issue: problem };
      yield;
    }
    document[collection.name] = parsed;
  }
  const unknownKey = first((issue) => issue.code === "unrecognized_keys");
  if (unknownKey) return { ok: false, issue: unknownKey };
  let problem: z.core.$ZodIssue | undefined;
  const ctx = {
    addIssue(issue: z.core.$ZodRawIssue | string) {
      if (typeof issue === "string") issue = { code: "custom", message: issue, input: undefined };
      problem ??= {
        ...issue,
        path: issue.path ?? [],
        message: issue.message ?? "Invalid input",
      } as z.core.$ZodIssue;
    },
  };
  yield* checkReferencesInSteps(document, ctx);
  return problem ? { ok: false, issue: problem } : { ok: true, value: document as ProjectDocument };
}

/** Parses records[start..end) into `parsed`; the first record's first problem, its path from the root, if any. */
function parseRange(
  collection: AnyCollection,
  records: readonly unknown[],
  start: number,
  end: number,
  parsed: unknown[],
): z.core.$ZodIssue | undefined {
  for (let i = start; i < end; i++) {
    const result = collection.schema.safeParse(records[i]);
    if (!result.success) {
      const issue = result.error.issues[0] as z.core.$ZodIssue;
      return { ...issue, path: [collection.name, i, ...issue.path] };
    }
    parsed.push(result.data);
  }
  return undefined;
}
