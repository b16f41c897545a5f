// @ts-check
import { api } from "../api.js";
import { h } from "../dom.js";

/**
 * The operations as the journal filter (by name) and the fault rules (method and path pattern) name them, read from
 * the server's own table (GET /__mock/operations) rather than kept here, so the page cannot list another set.
 * @typedef {{ name: string, title: string, method: string, path: string }} Operation
 */

/** @type {Operation[]} */
let operations = [];
/** @type {Promise<Operation[]> | undefined} */
let loading;

/** Asked once per page; asked again after a failure (the admin token not given yet, the server restarting). */
export function loadOperations() {
  loading ??= api("/__mock/operations").then(
    (/** @type {{ operations: Operation[] }} */ list) => {
      operations = list.operations;
      return operations;
    },
    (/** @type {unknown} */ error) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * The operation an option of `offerOperations` stands for.
 * @param {string} value
 * @returns {Operation | undefined}
 */
export function operationAt(value) {
  return value === "" ? undefined : operations[Number(value)];
}

/**
 * Adds an option per operation to a select, after those it has ("Any operation"), once they are known.
 * @param {HTMLSelectElement} select
 */
export async function offerOperations(select) {
  const list = await loadOperations();
  if (select.dataset.operations === "offered") return;
  select.dataset.operations = "offered";
  select.append(...list.map((op, i) => h("option", { value: String(i) }, op.title)));
}

/**
 * What people call an operation, by its row's name (`trackEvent`: "Custom event"), for the status line's
 * sentences; until the table is read (it is asked for now), the name in words.
 * @param {string} name
 * @returns {string}
 */
export function titleOf(name) {
  loadOperations().catch(() => undefined);
  return (
    operations.find((op) => op.name === name)?.title ?? name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()
  );
}
