import type { Project } from "../projects/project.js";
import type { Customer } from "./customer.js";
import { CUSTOMER_DATA_FIELDS, type CustomerInput } from "./customer-input.js";

/**
 * Who a request is about, worked out without touching the store: the customer as it will be once the request
 * succeeds, and whether it is new. Operations check every rule first and `commit` last, so a refused request
 * leaves no half-made customer behind (docs/reference/operations.md, "Errors": "A refused request changes nothing").
 */
export interface ResolvedCustomer {
  customer: Customer;
  isNew: boolean;
  changed: boolean;
}

/**
 * By `id`: the customer must exist (404 customer) and `source_id` is ignored. By `source_id` alone: the customer
 * with that source_id, or a new one. Either way the given fields update the record; metadata keys are merged into
 * the existing metadata, as the service's customer upsert does.
 */
export function resolveCustomer(project: Project, input: CustomerInput): ResolvedCustomer {
  const now = project.clock.iso();
  const existing = input.id
    ? project.customers.get(input.id)
    : project.customers.findBySourceId(input.source_id as string);
  if (!existing) {
    const created = applyFields(blankCustomer(project, input.source_id as string, now), input);
    return { customer: created, isNew: true, changed: true };
  }
  // A shallow copy is enough: applyFields replaces fields (metadata and address with new merged objects) and never
  // writes into the existing record's own objects. Only the fields the request gives can differ.
  const updated = applyFields({ ...existing }, input);
  const changed = CUSTOMER_DATA_FIELDS.some(
    (field) =>
      input[field] !== undefined && JSON.stringify(updated[field]) !== JSON.stringify(existing[field]),
  );
  if (changed) updated.updated_at = now;
  return { customer: changed ? updated : existing, isNew: false, changed };
}

export function commitCustomer(project: Project, resolved: ResolvedCustomer): Customer {
  if (resolved.changed) project.customers.put(resolved.customer);
  return resolved.customer;
}

function blankCustomer(project: Project, sourceId: string, now: string): Customer {
  return {
    id: project.ids.v1Id("cust"),
    source_id: sourceId,
    name: null,
    description: null,
    email: null,
    phone: null,
    birthdate: null,
    address: null,
    metadata: {},
    created_at: now,
    updated_at: null,
    object: "customer",
  };
}

function applyFields(customer: Customer, input: CustomerInput): Customer {
  for (const field of CUSTOMER_DATA_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    if (field === "metadata")
      customer.metadata = value === null ? {} : { ...customer.metadata, ...(value as object) };
    else if (field === "address")
      customer.address = value === null ? null : { ...customer.address, ...(value as object) };
    else (customer as Record<string, unknown>)[field] = value;
  }
  return customer;
}
