// @ts-check
import { api, projectPath } from "../api.js";
import { frame, h, show, submitted } from "../dom.js";
import { pager } from "./paging.js";
import { standingOf } from "./tiers.js";

/**
 * Members: customers with their cards (points, balance), publications and tier standing, newest first, one page
 * at a time; a search by source_id, email or card code.
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @returns {import("../app.js").Panel}
 */
export function membersPanel(section, context) {
  const input = h("input", {
    type: "search",
    id: "member-search",
    placeholder: "alice@example.com or DEMO-HELD-2345",
  });
  const search = searchForm(input, () => {
    paging.reset();
    refresh();
  });
  const { error, body } = frame(section, "Members", [search]);
  const paging = pager("members", () => refresh());
  const view = (/** @type {string} */ name, /** @type {Record<string, string|number>} */ query) =>
    api(projectPath(context.projectId, name), { query });

  /** @param {string} q */
  async function found(q) {
    const [bySource, byEmail, card] = await Promise.all([
      view("customers", { source_id: q }),
      view("customers", { email: q }),
      api(projectPath(context.projectId, "vouchers", q)).catch(() => null),
    ]);
    const customers = [...bySource.customers, ...byEmail.customers];
    if (card?.holder_id)
      customers.push(await api(projectPath(context.projectId, "customers", card.holder_id)));
    return [...new Map(customers.map((c) => [c.id, c])).values()];
  }

  async function page() {
    /** @type {any} */
    const list = await paging.newest((window) => view("customers", window));
    return /** @type {any[]} */ (list.customers).reverse();
  }

  async function refresh() {
    const q = input.value.trim();
    try {
      const [customers, structures] = await Promise.all([
        q ? found(q) : page(),
        view("tier-structures", { limit: 100 }),
      ]);
      const rows = await Promise.all(
        customers.map((/** @type {any} */ c) => row(c, structures.tier_structures)),
      );
      show(error);
      if (q) paging.state.total = customers.length;
      paging.render(customers.length);
      show(
        body,
        customers.length === 0
          ? h("p", null, q ? `No member matches ${q}.` : "No customers yet.")
          : membersTable(rows),
        q
          ? showAll(() => {
              input.value = "";
              refresh();
            })
          : paging.element,
      );
    } catch (e) {
      show(error, String(/** @type {Error} */ (e).message));
    }
  }

  /**
   * @param {any} customer
   * @param {any[]} structures
   */
  async function row(customer, structures) {
    // One call per member; a card's publish count says how often it was published (to its holder).
    const cards = await view("vouchers", { holder_id: customer.id, limit: 20 });
    return memberRow(customer, cards.vouchers, structures);
  }

  return {
    topics: ["records"],
    collections: ["customers", "vouchers", "publications", "tier_structures"],
    refresh,
  };
}

/**
 * The search by source_id, email or card code.
 * @param {HTMLInputElement} input
 * @param {() => void} onSearch
 */
function searchForm(input, onSearch) {
  return h(
    "form",
    { className: "search", role: "search", onsubmit: submitted(onSearch) },
    h("label", { for: "member-search" }, "Search by source_id, email or card code"),
    input,
    h("button", { type: "submit" }, "Search"),
  );
}

/**
 * The members' table, newest first.
 * @param {HTMLElement[]} rows
 */
function membersTable(rows) {
  const headings = ["Customer", "Cards", "Publications", "Tier standing"];
  return h(
    "table",
    { className: "members" },
    h("caption", { className: "sr-only" }, "Customers, newest first"),
    h("thead", null, h("tr", null, ...headings.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", null, ...rows),
  );
}

/**
 * Under a search's results: back to every member.
 * @param {() => void} onclick
 */
function showAll(onclick) {
  return h("p", null, h("button", { type: "button", onclick }, "Show all members"));
}

/**
 * One member's row: who, their cards, how often they were published, their standing in each tier structure.
 * @param {any} customer
 * @param {any[]} vouchers the customer's cards
 * @param {any[]} structures
 */
function memberRow(customer, vouchers, structures) {
  const published = vouchers.reduce(
    (/** @type {number} */ n, /** @type {any} */ v) => n + (v.publish?.count ?? 0),
    0,
  );
  return h(
    "tr",
    { "data-customer": customer.id },
    customerCell(customer),
    h("td", null, cardsList(vouchers)),
    h("td", null, String(published)),
    h("td", null, standingList(vouchers, structures)),
  );
}

/**
 * The customer's name, with their source_id and email under it.
 * @param {any} customer
 */
function customerCell(customer) {
  return h(
    "th",
    { scope: "row" },
    h("span", { className: "name" }, customer.name ?? customer.source_id ?? customer.id),
    h("br"),
    h(
      "small",
      null,
      customer.source_id ?? "",
      customer.email && customer.email !== customer.source_id ? ` · ${customer.email}` : "",
    ),
  );
}

/**
 * Each card: its code, its campaign, and a loyalty card's points and balance.
 * @param {any[]} vouchers
 */
function cardsList(vouchers) {
  if (vouchers.length === 0) return "none";
  return h(
    "ul",
    { className: "plain" },
    ...vouchers.map((v) =>
      h(
        "li",
        { "data-card": v.code },
        h("code", null, v.code),
        ` ${v.campaign ?? v.campaign_id}`,
        v.loyalty_card
          ? h(
              "span",
              { className: "points" },
              ` ${v.loyalty_card.points} points, balance ${v.loyalty_card.balance}`,
            )
          : "",
      ),
    ),
  );
}

/**
 * Where each loyalty card's points stand in each tier structure.
 * @param {any[]} vouchers
 * @param {any[]} structures
 */
function standingList(vouchers, structures) {
  const loyalty = vouchers.filter((v) => v.loyalty_card);
  if (loyalty.length === 0) return "—";
  return h(
    "ul",
    { className: "plain" },
    ...loyalty.flatMap((v) => standingOf(v.loyalty_card.points, structures).map((s) => h("li", null, s))),
  );
}
