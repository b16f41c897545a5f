// @ts-check
import { api, projectPath } from "../api.js";
import { chartFigure } from "../charts.js";
import { frame, h, show, submitted } from "../dom.js";

/** How many customers the picker offers; past it, type a source id or email and press Show. */
const PICKABLE = 1000;
/**
 * The newest timeline entries shown: a customer with 150,000 events has 300,000, which the page would spread into
 * one call's arguments (past the stack) and no audience would read.
 */
const TIMELINE_SHOWN = 500;

/**
 * One customer, for an audience: her loyalty card as a card (code, program, points, balance), her progress towards
 * the next tier in each structure, her balance over time and her own timeline (GET .../customers/{id}/story).
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @param {() => boolean} visible
 */
export function customerPanel(section, context, visible) {
  const input = h("input", {
    id: "customer-search",
    type: "search",
    autocomplete: "off",
  });
  input.setAttribute("list", "customer-options");
  const options = h("datalist", { id: "customer-options" });
  const form = h(
    "form",
    { className: "inline", onsubmit: submitted(() => pick()) },
    h("label", { for: "customer-search" }, "Customer (name, email or source id)"),
    input,
    options,
    h("button", { type: "submit" }, "Show"),
  );
  const { error, body } = frame(section, "Customer", [form]);
  const content = h("div", { className: "story" });
  body.append(content);
  const balance = chartFigure("balance-chart");
  /** @type {{ id: string, name: string | null, source_id: string | null, email: string | null }[]} */
  let customers = [];
  /** @type {string | undefined} */
  let chosen;
  let listedFor = "";

  async function loadCustomers() {
    const list = await api(projectPath(context.projectId, "customers"), { query: { limit: PICKABLE } });
    customers = list.customers;
    listedFor = context.projectId;
    show(options, ...customers.map((c) => h("option", { value: labelOf(c) })));
  }

  async function pick() {
    const typed = input.value.trim().toLowerCase();
    if (!typed) return;
    if (listedFor !== context.projectId) await loadCustomers();
    const found =
      customers.find((c) => labelOf(c).toLowerCase() === typed) ??
      customers.find((c) => [c.name, c.email, c.source_id, c.id].some((v) => v?.toLowerCase() === typed)) ??
      customers.find((c) => labelOf(c).toLowerCase().includes(typed));
    if (!found) return show(error, `No customer matches "${input.value}".`);
    chosen = found.id;
    await panel.refresh();
  }

  const panel = {
    topics: ["records", "clock", "project", "webhooks"],
    async refresh() {
      if (!visible() || !context.projectId) return;
      try {
        if (listedFor !== context.projectId) {
          await loadCustomers();
          chosen = undefined;
        }
        if (chosen === undefined || !customers.some((c) => c.id === chosen)) {
          chosen = customers.find((c) => c.name)?.id ?? customers[0]?.id;
          const first = customers.find((c) => c.id === chosen);
          if (first) input.value = labelOf(first);
        }
        if (chosen === undefined) return show(content, h("p", { className: "muted" }, "No customers yet."));
        const story = await api(projectPath(context.projectId, "customers", chosen, "story"));
        show(error);
        render(story);
      } catch (e) {
        show(error, `Cannot load the customer: ${/** @type {Error} */ (e).message}`);
      }
    },
  };

  /** @param {any} story */
  function render(story) {
    const { customer } = story;
    const who = customer.name ?? customer.source_id ?? customer.id;
    const cards = story.cards.map((/** @type {any} */ card) =>
      h(
        "article",
        { className: "loyalty-card", "aria-label": `Loyalty card ${card.code}`, "data-card": card.code },
        h("p", { className: "program" }, card.campaign_name),
        h("p", { className: "code" }, h("span", { className: "sr-only" }, "Card code "), card.code),
        h(
          "dl",
          null,
          h(
            "div",
            null,
            h("dt", null, "Points"),
            h("dd", { className: "points" }, card.points.toLocaleString("en")),
          ),
          h(
            "div",
            null,
            h("dt", null, "Balance"),
            h("dd", { className: "balance" }, card.balance.toLocaleString("en")),
          ),
        ),
        h("p", { className: "holder" }, who),
      ),
    );
    const first = story.cards[0];
    const progress = first
      ? h(
          "ul",
          { className: "progress-list" },
          ...first.progress
            .filter((/** @type {any} */ p) => p.tier !== null || p.next_tier !== null)
            .map((/** @type {any} */ p, /** @type {number} */ i) => {
              const id = `progress-${i}`;
              const text =
                p.next_tier === null
                  ? `${p.structure_name}: ${p.tier}, the top tier`
                  : `${p.structure_name}: ${p.tier ?? "no tier"}, ${(p.next_at - p.points).toLocaleString("en")} points to ${p.next_tier}`;
              return h(
                "li",
                null,
                h("label", { for: id }, text),
                h("progress", { id, max: 100, value: p.percent }, `${p.percent}%`),
              );
            }),
        )
      : h("p", { className: "muted" }, `${who} holds no loyalty card yet.`);
    if (first)
      balance.update({
        kind: "line",
        title: `${who}'s balance over time (card ${first.code})`,
        unit: "points",
        labels: first.balance_over_time.map(
          (/** @type {{ at: string }} */ b, /** @type {number} */ _i, /** @type {any[]} */ all) =>
            all.length > 1 && Date.parse(all[1].at) - Date.parse(all[0].at) >= 86_400_000
              ? b.at.slice(5, 10)
              : b.at.slice(11, 16),
        ),
        series: [
          {
            label: "Balance",
            values: first.balance_over_time.map((/** @type {{ balance: number }} */ b) => b.balance),
          },
        ],
      });
    show(
      content,
      h(
        "div",
        { className: "who" },
        h("h3", { id: "customer-name" }, who),
        h(
          "p",
          { className: "muted" },
          [...new Set([customer.email, customer.source_id].filter(Boolean))].join(" · "),
          h("span", { className: "id", title: customer.id }, ` · ${customer.id}`),
        ),
      ),
      h("div", { className: "cards" }, ...cards),
      h("h3", null, "Progress towards the next tier"),
      progress,
      first ? balance.figure : null,
      h("h3", null, "Timeline"),
      h(
        "ol",
        { className: "timeline" },
        ...story.timeline
          .slice(0, TIMELINE_SHOWN)
          .map((/** @type {{ at: string, kind: string, text: string }} */ entry) =>
            h(
              "li",
              { className: entry.kind },
              h("time", { dateTime: entry.at }, entry.at.slice(0, 16).replace("T", " ")),
              " ",
              entry.text,
            ),
          ),
        story.timeline.length > TIMELINE_SHOWN
          ? h(
              "li",
              { className: "muted" },
              `and ${(story.timeline.length - TIMELINE_SHOWN).toLocaleString("en")} earlier`,
            )
          : null,
      ),
    );
  }
  return panel;
}

/** @param {{ id: string, name: string | null, source_id: string | null, email: string | null }} c */
function labelOf(c) {
  const name = c.name ?? c.source_id ?? c.id;
  const contact = c.email ?? c.source_id;
  return contact && contact !== name ? `${name} (${contact})` : name;
}
