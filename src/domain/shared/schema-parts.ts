import { z } from "zod";

/** ISO 8601 in UTC, as the service writes every timestamp (`2026-11-20T10:00:00.000Z`). */
export const timestamp = z.iso.datetime();

export const nullableTimestamp = timestamp.nullable();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** How deep the quick walk recurses; deeper (a fixture or an import, which have no depth limit) goes on iteratively. */
const RECURSION_DEPTH = 64;

/**
 * Whether `value` holds, at any depth, a number no JSON text can carry back: the walk every free-form object of
 * every request pays for, so it keeps no path and allocates nothing (lostNumberAt finds the path, once).
 */
function holdsLostNumber(value: unknown, depth: number): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (typeof value !== "object" || value === null) return false;
  if (depth === RECURSION_DEPTH) return lostNumberAt(value) !== undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsLostNumber(value[i], depth + 1)) return true;
    return false;
  }
  // Own keys only in a parsed object (JSON.parse makes even `__proto__` one), so for...in, the quickest.
  for (const key in value)
    if (holdsLostNumber((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

/** A value below a free-form object, with the way to it kept only as a link to its parent. */
interface Node {
  value: unknown;
  parent: Node | undefined;
  key: string | number;
}

function pathTo(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Node | undefined = node; at !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * The path, below `object`, to its first number (in the order it is written) that no JSON text can carry back:
 * JSON.parse reads `1e400`, or an integer of 400 digits, as Infinity, which JSON.stringify writes as `null`. Kept
 * as given, such a number would come back as null in the answer, the journal, the export and the state file.
 * Iterative: a fixture or an import has no depth limit, as request bodies have.
 */
function lostNumberAt(object: object): (string | number)[] | undefined {
  const stack: Node[] = [];
  const push = (value: unknown, parent: Node | undefined, keys: (string | number)[]) => {
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string | number;
      const inner = (value as Record<string | number, unknown>)[key];
      // Strings, booleans and nulls hold no number: most of a metadata object, never put on the stack.
      if (typeof inner === "number" || (typeof inner === "object" && inner !== null))
        stack.push({ value: inner, parent, key });
    }
  };
  push(object, undefined, Object.keys(object));
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const { value } = node;
    if (typeof value === "number") {
      if (!Number.isFinite(value)) return pathTo(node);
    } else if (Array.isArray(value)) push(value, node, [...value.keys()]);
    else if (value !== null && typeof value === "object") push(value, node, Object.keys(value));
  }
  return undefined;
}

/**
 * A JSON object the service stores as it is given, whatever its keys. Not `z.record`: that copies the object and
 * silently drops a `__proto__` key, so what a client stored would not come back as sent. The object is kept as
 * parsed: JSON.parse makes every key, `__proto__` and `constructor` included, a plain own property, and nothing
 * downstream assigns keys one by one (spreads and structuredClone define them), so no prototype is ever touched.
 *
 * A number in it that JSON cannot carry (1e400, read as Infinity) is refused where it is, with the words a typed
 * field refuses it with (`Property .metadata.size should be number`), rather than stored and answered as null.
 */
const plainObject = (numbersChecked = true) =>
  z
    .custom<Record<string, unknown>>()
    .superRefine((value, ctx) => {
      if (!isPlainObject(value)) {
        // `continue: false`: a refinement chained after this one (a fault's headers) reads the value as an object.
        ctx.addIssue({ code: "custom", message: "should be object", input: value, continue: false });
        return;
      }
      const path = numbersChecked && holdsLostNumber(value, 0) ? lostNumberAt(value) : undefined;
      if (path !== undefined)
        ctx.addIssue({ code: "custom", path, message: "should be number", input: value });
    })
    // The control API's OpenAPI document is generated from these schemas; a custom check has no JSON Schema.
    .meta({ type: "object", additionalProperties: {} } as never);

export const freeObject = plainObject();

/** Free key/value attributes; the service stores whatever JSON object it is given. */
export const metadata = plainObject();

/** An object of any keys whose values its user checks itself, and words their problems (a fault's headers). */
export const keyedObject = plainObject(false);

export function idWithPrefix(prefix: string, body: RegExp = /^[A-Za-z0-9_-]+$/) {
  return z
    .string()
    .min(prefix.length + 2)
    .refine((value) => value.startsWith(`${prefix}_`) && body.test(value.slice(prefix.length + 1)), {
      message: `must be an id of the form ${prefix}_<id>`,
    });
}

/** v2 ids: a prefix and lowercase hex (`linc_[a-f0-9]+`, the contract's pattern). */
export function hexId(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}_[a-f0-9]+$`), `must match ^${prefix}_[a-f0-9]+$`);
}

export const category = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  hierarchy: z.number().int(),
  created_at: timestamp,
  updated_at: nullableTimestamp.optional(),
  object: z.literal("category").default("category"),
});

export type Category = z.output<typeof category>;
