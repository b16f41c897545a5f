// @ts-check
import { api, projectPath } from "./api.js";
import { h } from "./dom.js";

/**
 * Customers by name wherever the page names one, the id secondary (shown small, whole on hover and in a copy):
 * each customer is asked for once per project, as a card's code is.
 */
/** @type {Map<string, string>} */
let names = new Map();
let namesFor = "";

/**
 * The names of these customers (their id when one has none), fetching those not known yet.
 * @param {string} projectId
 * @param {Iterable<string>} ids
 */
export async function customerNames(projectId, ids) {
  if (namesFor !== projectId) {
    names = new Map();
    namesFor = projectId;
  }
  const missing = [...new Set(ids)].filter((id) => !names.has(id));
  const found = await Promise.all(
    missing.map((id) =>
      api(projectPath(projectId, "customers", id)).then(
        (customer) => [id, customer.name ?? customer.source_id ?? id],
        () => [id, id],
      ),
    ),
  );
  for (const [id, name] of found) names.set(id, name);
  return names;
}

/**
 * A customer as the page shows one: the name, then the id small (its whole value in the title).
 * @param {string} id
 * @param {Map<string, string>} known
 */
export function customerLabel(id, known) {
  const name = known.get(id);
  if (!name || name === id) return h("span", { className: "id", title: id }, id);
  return h("span", { className: "person" }, name, " ", h("small", { className: "id", title: id }, id));
}
