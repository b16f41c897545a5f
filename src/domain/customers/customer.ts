import { z } from "zod";
import { RecordStore } from "../record-store.js";
import { idWithPrefix, metadata, nullableTimestamp, timestamp } from "../shared/schema-parts.js";

export const addressSchema = z.strictObject({
  city: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
  line_1: z.string().nullable().optional(),
  line_2: z.string().nullable().optional(),
  country: z.string().nullable().optional(),
  postal_code: z.string().nullable().optional(),
});

const isoDate = z.iso.date();

/** The service's customer object, with the fields its customer endpoints read and write. */
export const customerSchema = z.strictObject({
  id: idWithPrefix("cust"),
  source_id: z.string().min(1).nullable().default(null),
  name: z.string().nullable().default(null),
  description: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
  phone: z.string().nullable().default(null),
  birthday: isoDate.nullable().optional(),
  birthdate: isoDate.nullable().default(null),
  address: addressSchema.nullable().default(null),
  metadata: metadata.default({}),
  created_at: timestamp,
  updated_at: nullableTimestamp.default(null),
  object: z.literal("customer").default("customer"),
});

export type Customer = z.output<typeof customerSchema>;

/** Customers of a project, found by the service's id or by the merchant's source_id. */
export class CustomerStore extends RecordStore<Customer> {
  readonly findBySourceId = this.index((customer) => customer.source_id);
}
