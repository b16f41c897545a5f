import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { formatJsonPath, parseDocument, parseJsonText } from "./documents.js";
import { exactUnderKeys, parseExact } from "./exact-json.js";
import { JsonPieces } from "./json-pieces.js";
import { shareWithPrevious } from "./share-values.js";

/** The fixtures shipped with the package: `<package root>/fixtures`, from src/ and from dist/ alike. */
export const DEFAULT_FIXTURES_DIR = fileURLToPath(new URL("../../fixtures", import.meta.url));

/** A fixture that cannot be used; the message names the file and the JSON path of the problem. */
export class FixtureError extends Error {
  readonly file: string;
  readonly jsonPath: string;

  constructor(file: string, jsonPath: string, problem: string) {
    super(`${file}: ${jsonPath}: ${problem}`);
    this.name = "FixtureError";
    this.file = file;
    this.jsonPath = jsonPath;
  }
}

/** How a file's integers past 2^53 are read: as JSON.parse reads them, all exactly, or exactly under some keys. */
type Exactness = "none" | "all" | ReadonlySet<string>;

function readJson(file: string, shownAs: string, exact: Exactness = "none"): unknown {
  const streamed = readJsonStreamed(file, exact);
  if (streamed.ok) return streamed.value;
  // Not JSON (or unreadable as a stream): read whole, so that the problem is told with its line and column.
  const text = readFileSync(file, "utf8");
  const parsed = parseJsonText(
    text,
    exact === "none"
      ? JSON.parse
      : exact === "all"
        ? (json) => parseExact(json)
        : (json) => parseExact(json, (value) => exactUnderKeys(value, exact)),
  );
  if (parsed.ok) return parsed.value;
  throw new FixtureError(shownAs, parsed.problem.where ?? "$", parsed.problem.problem);
}

/** How much of a fixture file is read at a time. */
const CHUNK_BYTES = 1 << 20;

/**
 * A fixture file's value read a chunk at a time (platform/json-pieces.ts), never as one text: a million cards are
 * some 170 MB of JSON, which read whole would sit in memory beside the records made from it. Each element of a
 * root array (each card) shares with the one before it every equal value (platform/share-values.ts), so the
 * parsed records hold one copy of a repeated date or campaign id until the schema has read them. The values are
 * the ones JSON.parse (or parseExact) gives for the whole text; any syntax error gives up, for the caller to read
 * the file whole and say where.
 */
function readJsonStreamed(file: string, exact: Exactness): { ok: true; value: unknown } | { ok: false } {
  let previous: Record<string, unknown> | undefined;
  const parseValue = (text: string, key: string | undefined): unknown =>
    exact === "all" || (exact !== "none" && key !== undefined && exact.has(key))
      ? parseExact(text)
      : JSON.parse(text);
  const pieces = new JsonPieces((text, key) => {
    const value = parseValue(text, key);
    if (key !== undefined || !isRecord(value)) return value;
    if (previous) shareWithPrevious(value, previous);
    previous = value;
    return value;
  });
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    for (;;) {
      // A fresh buffer each time: the reader keeps slices of a chunk for a piece that goes on into the next.
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      pieces.push(chunk.subarray(0, read));
    }
    return { ok: true, value: pieces.end() };
  } catch {
    return { ok: false };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The file a collection lives in inside a project folder: `tier_structures` in `tier-structures.json`. */
function collectionFile(collection: string): string {
  return `${collection.replaceAll("_", "-")}.json`;
}

interface Source {
  document: unknown;
  /** Where a path into the document points: the file and the path inside that file. */
  locate(path: readonly PropertyKey[]): { file: string; path: readonly PropertyKey[] };
}

function folderSource(
  dir: string,
  shownAs: string,
  collections: readonly string[],
  required: readonly string[],
  exactUnder: ReadonlySet<string>,
): Source {
  const byFile = new Map(collections.map((name) => [collectionFile(name), name]));
  const document: Record<string, unknown> = {};
  for (const entry of readdirSync(dir).sort()) {
    if (!entry.endsWith(".json")) continue;
    const shown = join(shownAs, entry);
    if (entry === "project.json") document.project = readJson(join(dir, entry), shown);
    else {
      const collection = byFile.get(entry);
      if (!collection)
        throw new FixtureError(
          shown,
          "$",
          `unknown fixture file; expected project.json or one of ${[...byFile.keys()].join(", ")}`,
        );
      document[collection] = readJson(join(dir, entry), shown, exactUnder.has(collection) ? "all" : "none");
    }
  }
  if (document.project === undefined)
    throw new FixtureError(join(shownAs, "project.json"), "$", "missing file");
  // A project whose keys file was forgotten would start, answer every call 401, and say nothing.
  for (const collection of required)
    if (document[collection] === undefined)
      throw new FixtureError(
        join(shownAs, collectionFile(collection)),
        "$",
        "missing file (write [] for a project that has none on purpose)",
      );
  return {
    document,
    locate: (path) => {
      const [head, ...rest] = path;
      if (head === "project") return { file: join(shownAs, "project.json"), path: rest };
      if (typeof head === "string" && collections.includes(head))
        return { file: join(shownAs, collectionFile(head)), path: rest };
      return { file: shownAs, path };
    },
  };
}

/**
 * Reads every project of a fixtures folder: each sub-folder is one project (project.json and one file per
 * collection), each top-level .json file one whole project document. Every document is validated with `schema`;
 * the first problem stops the load with its file and JSON path. A folder must hold the file of each `required`
 * collection; the others default to empty. Integers past 2^53 are kept exactly in the collections `exactUnder`
 * names (platform/exact-json.ts), and read as JSON.parse reads them elsewhere. With `onProblem` (`loyalty-mock
 * check`), a project's first problem is handed to it and the load goes on with the next project.
 */
export function loadFixtures<S extends z.ZodType>(
  dir: string,
  schema: S,
  collections: readonly string[],
  required: readonly string[] = [],
  exactUnder: ReadonlySet<string> = new Set(),
  onProblem?: (problem: FixtureError) => void,
): z.output<S>[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (error) {
    throw new FixtureError(
      dir,
      "$",
      `cannot read the fixtures folder (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  const documents: z.output<S>[] = [];
  let problems = 0;
  for (const entry of entries) {
    const full = join(dir, entry);
    const shownAs = relative(process.cwd(), full) || full;
    const load = (): z.output<S> | undefined => {
      let source: Source;
      if (statSync(full).isDirectory())
        source = folderSource(full, shownAs, collections, required, exactUnder);
      else if (entry.endsWith(".json"))
        source = {
          document: readJson(full, shownAs, exactUnder),
          locate: (path) => ({ file: shownAs, path }),
        };
      else return undefined;
      return shareRepeatedValues(parseSource(schema, source), collections);
    };
    try {
      const document = load();
      if (document !== undefined) documents.push(document);
    } catch (error) {
      if (onProblem === undefined || !(error instanceof FixtureError)) throw error;
      onProblem(error);
      problems++;
    }
  }
  if (documents.length === 0 && problems === 0)
    throw new FixtureError(dir, "$", "no project found (expected sub-folders or .json files)");
  return documents;
}

/**
 * Makes each record of every collection of a validated document share with the record before it every value equal
 * to that record's (platform/share-values.ts), as a restart does with a snapshot's records: a million fixture cards
 * then hold one copy of their campaign id, type, date, empty metadata and zero balance, not a million. The
 * document is fresh from the schema's parse and frozen by whoever keeps it, never changed in place afterwards.
 */
function shareRepeatedValues<T>(document: T, collections: readonly string[]): T {
  if (typeof document !== "object" || document === null) return document;
  for (const collection of collections) {
    const records = (document as Record<string, unknown>)[collection];
    if (!Array.isArray(records)) continue;
    let previous: unknown;
    for (const record of records) {
      if (isRecord(record) && isRecord(previous)) shareWithPrevious(record, previous);
      previous = record;
    }
  }
  return document;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseSource<S extends z.ZodType>(schema: S, source: Source): z.output<S> {
  const parsed = parseDocument(schema, source.document);
  if (parsed.ok) return parsed.value;
  const located = source.locate(parsed.problem.path);
  throw new FixtureError(located.file, formatJsonPath(located.path), parsed.problem.problem);
}
