import { z } from "zod";

/** ISO 8601 in UTC, as the service writes every timestamp (`2026-11-20T10:00:00.000Z`). */
export const timestamp = z.iso.datetime();

export const nullableTimestamp = timestamp.nullable();

/** Free key/value attributes; the service stores whatever JSON object it is given. */
export const metadata = z.record(z.string(), z.unknown());

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
