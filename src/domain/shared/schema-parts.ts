import { z } from "zod";

/** ISO 8601 in UTC, as the service writes every timestamp (`2026-11-20T10:00:00.000Z`). */
export const timestamp = z.iso.datetime();

export const nullableTimestamp = timestamp.nullable();

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A JSON object the service stores as it is given, whatever its keys. Not `z.record`: that copies the object and
 * silently drops a `__proto__` key, so what a client stored would not come back as sent. The object is kept as
 * parsed: JSON.parse makes every key, `__proto__` and `constructor` included, a plain own property, and nothing
 * downstream assigns keys one by one (spreads and structuredClone define them), so no prototype is ever touched.
 */
const plainObject = () =>
  z
    .custom<Record<string, unknown>>(isPlainObject, { message: "should be object" })
    // The control API's OpenAPI document is generated from these schemas; a custom check has no JSON Schema.
    .meta({ type: "object", additionalProperties: {} } as never);

export const freeObject = plainObject();

/** Free key/value attributes; the service stores whatever JSON object it is given. */
export const metadata = plainObject();

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
