import { z } from "zod";
import { metadata } from "../shared/schema-parts.js";
import { addressSchema } from "./customer.js";

const optionalText = z.string().nullable().optional();
const isoDate = z.iso.date();

/**
 * The customer part of a request, as the service's `Customer` schema has it: `id` and/or `source_id` say who, the
 * other fields say what to record about them. Fields the service does not define are ignored, as v1 does.
 */
export const customerInputSchema = z
  .object({
    id: optionalText,
    source_id: optionalText,
    name: optionalText,
    description: optionalText,
    email: optionalText,
    phone: optionalText,
    birthday: isoDate.nullable().optional(),
    birthdate: isoDate.nullable().optional(),
    address: addressSchema.partial().nullable().optional(),
    metadata: metadata.nullable().optional(),
  })
  .refine((customer) => Boolean(customer.id) || Boolean(customer.source_id), {
    message: "should have property id or source_id",
  });

export type CustomerInput = z.output<typeof customerInputSchema>;

/** The fields of a customer a request may set; identifiers excluded. */
export const CUSTOMER_DATA_FIELDS = [
  "name",
  "description",
  "email",
  "phone",
  "birthday",
  "birthdate",
  "address",
  "metadata",
] as const;
