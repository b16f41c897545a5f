import type { z } from "zod";
import { describeIssue } from "./validation-messages.js";

/**
 * Parsing of JSON documents that people write or export (fixtures, state exports, state files): a problem is
 * reported as a JSON path and a short sentence, so whoever reads it can find the spot. Callers add where the
 * document came from (a file, a request body).
 */

export type PathSegment = PropertyKey;

export function formatJsonPath(path: readonly PathSegment[]): string {
  let out = "$";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (typeof segment === "string" && /^[A-Za-z_$][\w$]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

export interface DocumentProblem {
  /** Where in the document: a path of keys and indexes, or a line and column for text that is not JSON. */
  path: readonly PathSegment[];
  /** Set instead of `path` when the text could not be parsed at all. */
  where?: string;
  problem: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: DocumentProblem };

/**
 * JSON.parse (or `parse`, which throws JSON.parse's errors: parseExact), with the position of a syntax error as a
 * line and column.
 */
export function parseJsonText(text: string, parse: (text: string) => unknown = JSON.parse): Parsed<unknown> {
  try {
    return { ok: true, value: parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? Number.NaN);
    let where = "$";
    if (!Number.isNaN(position)) {
      const before = text.slice(0, position).split("\n");
      where = `line ${before.length} column ${(before.at(-1)?.length ?? 0) + 1}`;
    }
    return { ok: false, problem: { path: [], where, problem: `not valid JSON (${message})` } };
  }
}

/** Validates a document with its schema; the first problem comes back with its path. */
export function parseDocument<S extends z.ZodType>(schema: S, document: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(document);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  if (!issue) return { ok: false, problem: { path: [], problem: "invalid" } };
  return { ok: false, problem: documentProblem(issue, document) };
}

/** A schema's issue with `document` as a problem at its path (a document validated in steps reports the same). */
export function documentProblem(issue: z.core.$ZodIssue, document: unknown): DocumentProblem {
  // An unknown property is reported at its own path, so a typo points at itself.
  const unknownKey = issue.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const path = unknownKey === undefined ? issue.path : [...issue.path, unknownKey];
  const problem =
    unknownKey === undefined
      ? describeIssue(issue, document).replace(/^(Property \S+|Request body) /, "")
      : "unknown property; the fixture format has no such field";
  return { path, problem };
}

/** `$.vouchers[2].code: should be string`, the way a problem is shown without a file. */
export function describeProblem(problem: DocumentProblem): string {
  return `${problem.where ?? formatJsonPath(problem.path)}: ${problem.problem}`;
}
