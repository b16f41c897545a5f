import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDocumentInSteps } from "../../src/domain/projects/document-steps.js";
import { projectDocumentSchema } from "../../src/domain/projects/project-document.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { describeProblem, documentProblem, parseDocument } from "../../src/platform/documents.js";
import { runToEnd } from "../../src/platform/steps.js";
import { buildWorld } from "../helpers/world.js";
import { FUZZ_RUNS, fuzzParameters } from "./harness.js";

/**
 * A document the control API is given (an import, a posted project) is validated a step at a time
 * (parseDocumentInSteps), so that a million cards do not hold other requests: it must answer exactly what the
 * schema's whole parse answers, the same value or the same first problem, worded the same. The slow tier runs the
 * generated documents again with its FUZZ_RUNS.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const demo = (): Record<string, Json> => JSON.parse(JSON.stringify(exportProject(buildWorld().demo)));

/** What the client sees of either parse: the parsed document, or the first problem's text. */
function outcome(parsed: { ok: true; value: unknown } | { ok: false; issue: unknown }, input: unknown) {
  if (parsed.ok) return { ok: true, value: parsed.value };
  return { ok: false, problem: describeProblem(documentProblem(parsed.issue as never, input)) };
}

function both(input: unknown) {
  const whole = projectDocumentSchema.safeParse(input);
  const wholeOutcome = whole.success
    ? { ok: true, value: whole.data }
    : (() => {
        const parsed = parseDocument(projectDocumentSchema, input);
        return { ok: false, problem: parsed.ok ? "" : describeProblem(parsed.problem) };
      })();
  return { whole: wholeOutcome, steps: outcome(runToEnd(parseDocumentInSteps(input)), input) };
}

/** Every path to a value in the document: where a mutation may land. */
function paths(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (Array.isArray(value)) for (const [i, item] of value.entries()) paths(item, [...at, i], out);
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) paths(item, [...at, key], out);
  return out;
}

function setAt(root: Record<string, Json>, path: (string | number)[], value: Json | undefined) {
  let node = root as Json;
  for (const step of path.slice(0, -1)) node = (node as Record<string | number, Json>)[step] as Json;
  const last = path.at(-1) as string | number;
  if (value === undefined) delete (node as Record<string | number, Json>)[last];
  else (node as Record<string | number, Json>)[last] = value;
}

const leaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  fc.constantFrom("cust_demo_alice", "camp_demo_loyalty", "", "2026-01-01T00:00:00.000Z", "loc_demo_circle"),
);
const anyJson = fc.oneof(
  leaf,
  fc.array(leaf, { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), leaf),
);

describe("parseDocumentInSteps", () => {
  it("answers a whole valid document with the schema's own value", () => {
    const input = demo();
    const { whole, steps } = both(input);
    expect(whole.ok).toBe(true);
    expect(steps).toEqual(whole);
  });

  it.each([
    ["a root that is not an object", () => []],
    ["null", () => null],
    ["no project", () => ({ ...demo(), project: undefined })],
    ["a collection that is not an array", () => ({ ...demo(), vouchers: null })],
    ["an unknown key beside a bad record", () => ({ ...demo(), zz: 1, customers: [{ id: 5 }] })],
    ["an unknown key alone", () => ({ ...demo(), zz: 1 })],
    [
      "a duplicate id",
      () => ({ ...demo(), locations: [...(demo().locations as Json[]), ...(demo().locations as Json[])] }),
    ],
    [
      "a reference to nothing",
      () => ({
        ...demo(),
        vouchers: [{ ...(demo().vouchers as Record<string, Json>[])[0], campaign_id: "camp_nope" }],
      }),
    ],
    [
      "a bad project header and a bad record",
      () => ({ ...demo(), project: { id: "BAD" }, customers: [{ id: 5 }] }),
    ],
  ])("words %s as the schema does", (_name, make) => {
    const { whole, steps } = both(make());
    expect(whole.ok).toBe(false);
    expect(steps).toEqual(whole);
  });

  it("agrees with the schema on documents changed at random: a value replaced, a key dropped or added", () => {
    // The demo with the cards nothing names but a few: every collection keeps a fair share of the changes.
    const whole = demo();
    const named = new Set(JSON.stringify([whole.publications, whole.events]).match(/v_[A-Za-z0-9]+/g));
    const cards = (whole.vouchers as { id: string; holder_id?: string | null }[]).filter(
      (card, i) => i < 5 || card.holder_id || named.has(card.id),
    );
    const base = { ...whole, vouchers: cards } as Record<string, Json>;
    expect(both(base).whole.ok).toBe(true);
    const all = paths(base).filter((path) => path.length > 0);
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: all.length - 1 }),
            fc.oneof(
              anyJson.map((v) => ({ v })),
              fc.constant(undefined),
            ),
          ),
          { minLength: 1, maxLength: 3 },
        ),
        fc.option(fc.string({ maxLength: 6 }), { nil: undefined }),
        (changes, extraKey) => {
          const input = structuredClone(base);
          for (const [index, change] of changes) {
            try {
              setAt(input, all[index] as (string | number)[], change?.v);
            } catch {
              // The path is gone: an earlier change replaced what held it.
            }
          }
          if (extraKey !== undefined) input[extraKey] = 1;
          const { whole, steps } = both(input);
          expect(steps).toEqual(whole);
        },
      ),
      // A quarter of FUZZ_RUNS: each case parses a document twice (50 in the fast tier, 500 in the slow one).
      { ...fuzzParameters(), numRuns: Math.ceil(FUZZ_RUNS / 4) },
    );
  });
});
