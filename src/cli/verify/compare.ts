import { isDeepStrictEqual } from "node:util";
import type { Normalized } from "./normalize.js";
import { valueAt } from "./normalize.js";
import type { Step } from "./step.js";

/**
 * The comparison of one step's two normalized answers. `target` is always the service the user pointed verify at
 * (or its recording), `mock` is loyalty-mock: a difference says what the service answered and what we answered.
 *
 * - status first; when one side succeeded and the other did not, nothing else is worth comparing;
 * - errors: `key` and `message` (the details text and the request id are for people);
 * - successes: the shape (every property path and its JSON type, an array by its items) and the values the step
 *   names (constants and echoed input, with ids already named or masked);
 * - the headers a client reads: the media type, and the rate-limit headers present on both or neither.
 *
 * `null` matches any type only where the data decides it, not the service's behaviour: a campaign's dates and
 * category, a card's `additional_info` and redemption `quantity`, a customer's `name` and `email`, `updated_at`.
 * Elsewhere (`loyalty_card`, `gift`, `referral`, ...) null against an object is a difference. Below a `metadata`
 * property only its being an object counts: its keys are the project's own data.
 */
/**
 * `only-target`: the target has the property and the mock not; `only-mock`: the other way round; `redirect`: a
 * side answered with a redirect (never followed), shown as its status and `Location`.
 */
type DifferenceKind = "status" | "redirect" | "only-target" | "only-mock" | "type" | "value" | "header";

export interface Difference {
  path: string;
  kind: DifferenceKind;
  /** What the target (the service, or its recording) answered there; undefined when absent. */
  target: unknown;
  /** What loyalty-mock answered there. */
  mock: unknown;
}

type JsonType = "null" | "string" | "number" | "boolean" | "array" | "object";

const typeOf = (value: unknown): JsonType =>
  value === null ? "null" : Array.isArray(value) ? "array" : (typeof value as JsonType);

/** Every path of a JSON value with its type; an array's items are merged under `path[]`. */
function shapeOf(value: unknown, path: string, into: Map<string, Set<JsonType>>): Map<string, Set<JsonType>> {
  const types = into.get(path) ?? new Set<JsonType>();
  types.add(typeOf(value));
  into.set(path, types);
  const leaf = path.split(".").at(-1);
  if (leaf === "metadata") return into;
  if (Array.isArray(value)) for (const item of value) shapeOf(item, `${path}[]`, into);
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) shapeOf(item, `${path}.${key}`, into);
  return into;
}

const typeText = (types: Set<JsonType> | undefined) => (types ? [...types].sort().join("|") : undefined);
const NULL_BY_DATA = new Set([
  "start_date",
  "expiration_date",
  "validity_timeframe",
  "validity_day_of_week",
  "additional_info",
  "category",
  "category_id",
  "quantity",
  "name",
  "email",
  "updated_at",
]);

/** Types that agree: one in common, or null on either side where the data decides it. */
function agree(path: string, a: Set<JsonType>, b: Set<JsonType>): boolean {
  if ([...a].some((type) => b.has(type))) return true;
  return (a.has("null") || b.has("null")) && NULL_BY_DATA.has(path.split(".").at(-1) ?? "");
}

function parentOf(path: string): string | undefined {
  const cut = Math.max(path.lastIndexOf("."), path.endsWith("[]") ? path.length - 2 : -1);
  return cut > 0 ? path.slice(0, cut) : undefined;
}

/** A path one side lacks counts only where its parent is an object on both: no noise below what already differs. */
function comparable(
  path: string,
  target: Map<string, Set<JsonType>>,
  mock: Map<string, Set<JsonType>>,
): boolean {
  const parent = parentOf(path);
  if (parent === undefined) return true;
  const [a, b] = [target.get(parent), mock.get(parent)];
  if (!a || !b || a.has("null") || b.has("null")) return false;
  return comparable(parent, target, mock);
}

function shapeDifferences(target: unknown, mock: unknown): Difference[] {
  const [a, b] = [shapeOf(target, "body", new Map()), shapeOf(mock, "body", new Map())];
  const differences: Difference[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const [ta, tb] = [a.get(path), b.get(path)];
    if (!comparable(path, a, b)) continue;
    if (ta && tb) {
      if (!agree(path, ta, tb))
        differences.push({ path, kind: "type", target: typeText(ta), mock: typeText(tb) });
    } else
      differences.push({
        path,
        kind: ta ? "only-target" : "only-mock",
        target: typeText(ta),
        mock: typeText(tb),
      });
  }
  return differences;
}

/** A header's value, own properties only (a recording's headers may name `__proto__` or `constructor`). */
const header = (answer: Normalized, name: string) =>
  Object.hasOwn(answer.headers, name) ? answer.headers[name] : undefined;

function headerDifferences(target: Normalized, mock: Normalized): Difference[] {
  const names = new Set([...Object.keys(target.headers), ...Object.keys(mock.headers)]);
  return [...names]
    .filter((name) => header(target, name) !== header(mock, name))
    .map((name) => ({
      path: `headers.${name}`,
      kind: "header",
      target: header(target, name),
      mock: header(mock, name),
    }));
}

const isRedirect = (answer: Normalized) => answer.status >= 300 && answer.status < 400;
/** A redirect as shown: `307 to https://elsewhere/v1/oauth/token`. */
const statusOf = (answer: Normalized) =>
  isRedirect(answer) ? `${answer.status} to ${header(answer, "location") ?? "(no Location)"}` : answer.status;

/** `absent`: whether a property one side lacks counts here (for successes, the shape says it already). */
function valueDifferences(
  target: unknown,
  mock: unknown,
  paths: readonly string[],
  absent = false,
): Difference[] {
  return paths.flatMap((path): Difference[] => {
    const [a, b] = [valueAt(target, path), valueAt(mock, path)];
    if (isDeepStrictEqual(a, b)) return [];
    if (a === undefined || b === undefined)
      return absent
        ? [{ path: `body.${path}`, kind: a === undefined ? "only-mock" : "only-target", target: a, mock: b }]
        : [];
    return [{ path: `body.${path}`, kind: "value", target: a, mock: b }];
  });
}

const ERROR_VALUES = ["key", "message"];

export function compareAnswers(step: Step, target: Normalized, mock: Normalized): Difference[] {
  if (isRedirect(target) || isRedirect(mock)) {
    const [a, b] = [statusOf(target), statusOf(mock)];
    return a === b ? [] : [{ path: "status", kind: "redirect", target: a, mock: b }];
  }
  if (target.status !== mock.status) {
    const status: Difference = { path: "status", kind: "status", target: target.status, mock: mock.status };
    const bothErrors = target.status >= 400 && mock.status >= 400;
    return bothErrors ? [status, ...valueDifferences(target.body, mock.body, ERROR_VALUES, true)] : [status];
  }
  const headers = headerDifferences(target, mock);
  if (target.status >= 400)
    return [...valueDifferences(target.body, mock.body, ERROR_VALUES, true), ...headers];
  const echoed = Object.keys(step.echo ?? {});
  return [
    ...shapeDifferences(target.body, mock.body),
    ...valueDifferences(target.body, mock.body, [...echoed, ...(step.values ?? [])]),
    ...headers,
  ];
}
