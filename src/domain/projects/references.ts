import type { z } from "zod";
import { eachOfArray, runToEnd, type Steps } from "../../platform/steps.js";
import type { AnyCollection, Path, Reference } from "../collection.js";
import type { KeySet } from "../record-store.js";
import { COLLECTIONS } from "./collections.js";
import type { ProjectSettings } from "./settings.js";

type Ctx = Pick<z.RefinementCtx, "addIssue">;
type Records = readonly Record<string, unknown>[];

function issue(ctx: Ctx, path: Path, message: string): void {
  ctx.addIssue({ code: "custom", path, message });
}

/**
 * The set of a collection's values of a field that a store built from exactly these records holds already (its
 * ids, or a unique index): `undefined` where there is none. A restart passes the stores of the project it built,
 * so a million cards' ids and codes are not put in a second set each.
 */
export type KnownKeys = (collection: string, field: string) => KeySet | undefined;

interface Seen {
  has(value: unknown): boolean;
}

/** Reports every value of `field` that occurs twice in a collection, a step at a time; returns the values seen. */
function* unique(
  ctx: Ctx,
  collection: string,
  items: Records,
  field: string,
  known?: KnownKeys,
): Steps<Seen> {
  const set = known?.(collection, field);
  if (set) {
    // The store holds one entry per distinct value: as many as there are values means none occurs twice. Any
    // other count falls through to the scan, which names the duplicate.
    let count = 0;
    yield* eachOfArray(items, (item) => {
      const value = (item as Record<string, unknown>)[field];
      if (value !== null && value !== undefined) count++;
    });
    if (count === set.size) return set as Seen;
  }
  const seen = new Set<unknown>();
  yield* eachOfArray(items, (item, index) => {
    const value = (item as Record<string, unknown>)[field];
    if (value === null || value === undefined) return;
    if (seen.has(value)) issue(ctx, [collection, index, field], `duplicate ${field} ${String(value)}`);
    seen.add(value);
  });
  return seen;
}

/** A reference's field as steps: a key, and whether it is an array whose every element goes on (`ids[]`). */
function stepsOf(field: string): { key: string; each: boolean }[] {
  return field.split(".").map((part) => ({ key: part.replace(/\[\]$/, ""), each: part.endsWith("[]") }));
}

/**
 * Checks one reference of a collection, a step at a time: every value its field names is among `targets`. A plain
 * field (the common case: a million cards' campaign ids) is a loop with no path built unless a value is missing.
 */
function* checkReference(
  ctx: Ctx,
  collection: string,
  items: Records,
  reference: Reference,
  targets: Seen,
  missing: (value: unknown) => string,
): Steps<void> {
  const steps = stepsOf(reference.field);
  const [only] = steps;
  if (steps.length === 1 && only && !only.each) {
    const field = only.key;
    yield* eachOfArray(items, (item, i) => {
      const value = (item as Record<string, unknown>)[field];
      if (value !== null && value !== undefined && !targets.has(value))
        issue(ctx, [collection, i, field], missing(value));
    });
    return;
  }
  const visit = (value: unknown, at: number, path: Path): void => {
    if (value === null || value === undefined) return;
    const step = steps[at];
    if (!step) {
      if (!targets.has(value)) issue(ctx, path, missing(value));
      return;
    }
    const next = (value as Record<string, unknown>)[step.key];
    if (!step.each) visit(next, at + 1, [...path, step.key]);
    else if (Array.isArray(next))
      next.forEach((element, j) => {
        visit(element, at + 1, [...path, step.key, j]);
      });
  };
  yield* eachOfArray(items, (record, i) => visit(record, 0, [collection, i]));
}

/** What a missing target is called: `no campaign with id X in this project`, `no custom event named X in ...`. */
function missingMessage(target: AnyCollection, by: string): (value: unknown) => string {
  return by === target.key
    ? (value) => `no ${target.label} with ${by} ${String(value)} in this project`
    : (value) => `no ${target.label} named ${String(value)} in ${target.name}`;
}

/** The document's project settings, as its schema parsed them (none where the part is missing). */
function settingsOf(doc: object): ProjectSettings {
  const project = (doc as { project?: { settings?: ProjectSettings } }).project;
  return project?.settings ?? {};
}

/**
 * Checks that a project document hangs together, from the collections' declarations (projects/collections.ts):
 * keys and unique fields unique, every reference pointing at something in the same project, each collection's
 * own rules. The loader reports each problem with its JSON path, like a schema error.
 */
export function checkReferences(doc: object, ctx: Ctx, known?: KnownKeys): void {
  runToEnd(checkReferencesInSteps(doc, ctx, known));
}

/** The same, a step at a time: a document posted to the control API is checked between other requests. */
export function* checkReferencesInSteps(doc: object, ctx: Ctx, known?: KnownKeys): Steps<void> {
  const collections: readonly AnyCollection[] = COLLECTIONS;
  const records = (name: string) => ((doc as Record<string, unknown>)[name] ?? []) as Records;
  // The values each collection holds of each field that must be unique, as its check saw them: built once.
  const seen = new Map<string, Seen>();
  for (const c of collections)
    seen.set(`${c.name}.${c.key}`, yield* unique(ctx, c.name, records(c.name), c.key, known));
  for (const c of collections)
    for (const field of c.unique ?? [])
      seen.set(`${c.name}.${field}`, yield* unique(ctx, c.name, records(c.name), field, known));
  const byName = new Map(collections.map((c) => [c.name, c]));
  for (const c of collections) {
    for (const reference of c.references ?? []) {
      const target = byName.get(reference.to);
      if (!target) throw new Error(`${c.name}.${reference.field} names no collection ${reference.to}`);
      const by = reference.by ?? target.key;
      const targets =
        seen.get(`${target.name}.${by}`) ?? new Set(records(target.name).map((record) => record[by]));
      yield* checkReference(ctx, c.name, records(c.name), reference, targets, missingMessage(target, by));
    }
    c.check?.(records(c.name), (path, message) => issue(ctx, path, message), settingsOf(doc));
  }
}
