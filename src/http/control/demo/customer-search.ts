import type { Project } from "../../../domain/projects/project.js";
import { listOf } from "../shapes.js";

type Customer = ReturnType<Project["customers"]["get"]>;

/**
 * How many customers a search reads, newest first, for a part of a name, email or source id: a search answers in
 * a few milliseconds at a million customers (a walk of all of them would hold the operations up), and the person
 * a presenter looks for has just joined. An exact id or source id is found among any number.
 */
export const SEARCHED = 20_000;

/** A customer as a search lists her. */
function briefOf(customer: Customer) {
  return {
    id: customer.id,
    name: customer.name ?? null,
    source_id: customer.source_id ?? null,
    email: customer.email ?? null,
    created_at: customer.created_at,
  };
}

const holds = (customer: Customer, wanted: string) =>
  [customer.name, customer.email, customer.source_id, customer.id].some((value) =>
    value?.toLowerCase().includes(wanted),
  );

/**
 * The customers matching `text`, at most `limit`: first the one whose id or source id it is (from the store's
 * indexes), then the newest customers holding it in their name, email, source id or id, case aside, among the
 * newest SEARCHED; with no text, the newest customers. The Customer view's search, which finds whoever exists now.
 */
export function searchCustomers(project: Project, text: string, limit: number) {
  const wanted = text.trim();
  const found: Customer[] = [];
  const add = (customer: Customer | undefined) => {
    if (customer !== undefined && found.length < limit && !found.includes(customer)) found.push(customer);
  };
  if (wanted !== "") {
    add(project.customers.find(wanted));
    add(project.customers.findBySourceId(wanted));
  }
  const lower = wanted.toLowerCase();
  let read = 0;
  for (const customer of project.figures.customers.newestFirst()) {
    if (found.length >= limit || read >= SEARCHED) break;
    read++;
    if (lower === "" || holds(customer, lower)) add(customer);
  }
  return listOf("customers", found.map(briefOf));
}
