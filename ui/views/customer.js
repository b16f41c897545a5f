// @ts-check
import { api, projectPath } from "../api.js";
import { chartFigure } from "../charts.js";
import { frame, h, show, submitted } from "../dom.js";
import { freshness } from "./fresh.js";

/** How many customers a search offers as you type. */
const OFFERED = 20;
/**
 * The newest timeline entries shown: a customer with 150,000 events has 300,000, which the page would spread into
 * one call's arguments (past the stack) and no audience would read.
 */
const TIMELINE_SHOWN = 500;

/**
 * @typedef {{ id: string, name: string | null, source_id: string | null, email: string | null }} Brief
 * @typedef {{ at: string, kind: string, text: string, details?: string[] }} Entry
 */

/**
 * One customer, for an audience: her loyalty card as a card (program, code, points, balance, her tier in each
 * structure), where she stands on each structure's ladder of tiers, her balance over time and her own timeline
 * (GET .../customers/{id}/story). The search asks the server (GET .../customer-search), so it finds whoever exists
 * now, someone who joined after the page opened included; "Follow the newest customer" shows each one who joins as
 * a play runs. A customer who no longer exists (the demo was reset) gives way to one who does, without an error.
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @param {() => boolean} visible
 */
export function customerPanel(section, context, visible) {
  const input = h("input", {
    id: "customer-search",
    type: "search",
    autocomplete: "off",
    oninput: () => suggestSoon(),
  });
  input.setAttribute("list", "customer-options");
  const options = h("datalist", { id: "customer-options" });
  const follow = h("input", {
    id: "customer-follow",
    type: "checkbox",
    onchange: () => {
      if (follow.checked) chosen = undefined;
      panel.refresh();
    },
  });
  const form = h(
    "form",
    { className: "inline", onsubmit: submitted(() => pick()) },
    h("label", { for: "customer-search" }, "Customer (name, email or source id)"),
    input,
    options,
    h("button", { type: "submit" }, "Show"),
    h("label", { className: "follow" }, follow, " Follow the newest customer"),
  );
  const { error, body } = frame(section, "Customer", [form]);
  const content = h("div", { className: "story" });
  body.append(content);
  const balance = chartFigure("balance-chart");
  /** The customers the search last offered, by the label the input shows for each. */
  /** @type {Map<string, Brief>} */
  let offered = new Map();
  /** @type {string | undefined} */
  let chosen;
  let shownFor = "";
  let shownCustomer = "";
  /** Timeline entries that just came in, marked for a moment. */
  const fresh = freshness();
  /** The webhook entries the presenter opened, by key: kept open when the timeline is drawn again. */
  const opened = new Set();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let suggesting;

  /** @param {string} q @param {number} limit @returns {Promise<Brief[]>} */
  async function search(q, limit) {
    const answer = await api(projectPath(context.projectId, "customer-search"), { query: { q, limit } });
    return answer.customers;
  }

  /** Offers the customers matching what is typed, a moment after the typing stops. */
  function suggestSoon() {
    clearTimeout(suggesting);
    suggesting = setTimeout(() => {
      search(input.value.trim(), OFFERED).then(
        (found) => {
          offered = new Map(found.map((c) => [labelOf(c), c]));
          show(options, ...[...offered.keys()].map((label) => h("option", { value: label })));
        },
        () => undefined,
      );
    }, 150);
  }

  async function pick() {
    const typed = input.value.trim();
    if (!typed) return;
    try {
      const found = offered.get(typed) ?? (await search(typed, 1))[0];
      if (!found) return show(error, `No customer matches "${typed}".`);
      show(error);
      follow.checked = false;
      chosen = found.id;
      input.value = labelOf(found);
      await panel.refresh();
    } catch (e) {
      show(error, `Cannot search the customers: ${/** @type {Error} */ (e).message}`);
    }
  }

  /**
   * Whom to show when nobody is chosen: the newest customer when following, else the first named customer the
   * project lists (in the demo, Alice and her history).
   * @returns {Promise<Brief | undefined>}
   */
  async function fallback() {
    if (follow.checked) return (await search("", 1))[0];
    const list = await api(projectPath(context.projectId, "customers"), { query: { limit: 20 } });
    return list.customers.find((/** @type {Brief} */ c) => c.name) ?? list.customers[0];
  }

  const panel = {
    topics: ["records", "clock", "project", "webhooks"],
    async refresh() {
      if (!visible() || !context.projectId) return;
      try {
        if (shownFor !== context.projectId) {
          chosen = undefined;
          fresh.forget();
          shownFor = context.projectId;
        }
        if (follow.checked) chosen = undefined;
        let story = chosen === undefined ? undefined : await storyOf(chosen);
        // Nobody chosen, or the one shown is gone (a reset, a restore): someone who exists now.
        if (story === undefined) {
          const next = await fallback();
          if (next === undefined) {
            show(error);
            return show(content, h("p", { className: "muted" }, "No customers yet."));
          }
          chosen = next.id;
          input.value = labelOf(next);
          story = await storyOf(next.id);
          if (story === undefined) return;
        }
        show(error);
        render(story);
      } catch (e) {
        show(error, `Cannot load the customer: ${/** @type {Error} */ (e).message}`);
      }
    },
  };

  /**
   * The customer's story, or undefined when she does not exist (any more).
   * @param {string} id
   */
  async function storyOf(id) {
    try {
      return await api(projectPath(context.projectId, "customers", id, "story"));
    } catch (e) {
      if (/** @type {{ status?: number }} */ (e).status === 404) return undefined;
      throw e;
    }
  }

  /** @param {any} story */
  function render(story) {
    const { customer } = story;
    const who = customer.name ?? customer.source_id ?? customer.id;
    const many = (story.cards[0]?.progress.length ?? 0) > 1;
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
          ...card.progress.map((/** @type {any} */ p) =>
            h(
              "div",
              { className: "card-tier" },
              h("dt", null, many ? p.structure_name : "Tier"),
              h("dd", { "data-structure": p.structure_id }, p.tier ?? "None yet"),
            ),
          ),
        ),
        h("p", { className: "holder" }, who),
      ),
    );
    const first = story.cards[0];
    const progress = first
      ? h("ul", { className: "progress-list" }, ...first.progress.filter(onLadder).map(ladderOf))
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
    // Another customer's timeline is drawn as it stands: only what comes in while she is shown is new.
    if (customer.id !== shownCustomer) fresh.forget();
    shownCustomer = customer.id;
    /** @type {Entry[]} */
    const shown = story.timeline.slice(0, TIMELINE_SHOWN);
    const keyOf = (/** @type {Entry} */ entry) => `${customer.id} ${entry.at} ${entry.kind} ${entry.text}`;
    fresh.see(shown.map(keyOf));
    const timeline = h(
      "ol",
      { className: "timeline" },
      ...shown.map((entry) => entryOf(entry, keyOf(entry), fresh.isFresh(keyOf(entry)), opened)),
      story.timeline.length > TIMELINE_SHOWN
        ? h(
            "li",
            { className: "muted" },
            `and ${(story.timeline.length - TIMELINE_SHOWN).toLocaleString("en")} earlier`,
          )
        : null,
    );
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
      h("h3", null, "Tiers"),
      progress,
      first ? balance.figure : null,
      h("h3", null, "Timeline"),
      timeline,
    );
    fresh.fade(content);
  }
  return panel;
}

/** A structure with a ladder to climb, or a tier she holds. */
const onLadder = (/** @type {any} */ p) => p.ladder.length > 0 || p.tier !== null;

/**
 * Where a card stands in a structure, as a ladder (Bronze from 0, Silver from 1,000, Gold from 5,000), each rung
 * reached, hers, or ahead: a new tier is a step up, never a bar that empties.
 * @param {any} p the story's progress in one structure
 * @param {number} i
 */
function ladderOf(p, i) {
  const id = `progress-${i}`;
  const points = p.points;
  const top = p.ladder.at(-1);
  const text =
    p.next_tier !== null
      ? `${p.structure_name}: ${p.tier ?? "no tier yet"}, ${(Number(p.next_at) - points).toLocaleString("en")} points to ${p.next_tier}`
      : p.tier !== null
        ? `${p.structure_name}: ${p.tier}, the top tier`
        : `${p.structure_name}: ${points.toLocaleString("en")} points, past ${top?.name ?? "every tier"}'s range`;
  return h(
    "li",
    null,
    h("p", { id, className: "ladder-says" }, text),
    h(
      "ol",
      { className: "ladder", "aria-labelledby": id },
      ...p.ladder.map((/** @type {{ name: string, from: number | string }} */ rung) => {
        const mine = rung.name === p.tier;
        const reached = Number(rung.from) <= points;
        return h(
          "li",
          {
            className: `rung${mine ? " current" : reached ? " reached" : ""}`,
            "aria-current": mine ? "step" : null,
            "data-tier": rung.name,
          },
          h("span", { className: "rung-name" }, rung.name),
          h("span", { className: "rung-from" }, `from ${Number(rung.from).toLocaleString("en")}`),
        );
      }),
    ),
  );
}

/**
 * A timeline entry: a tier reached stands out, a request's webhooks are one line to open.
 * @param {Entry} entry
 * @param {string} key
 * @param {boolean} isNew
 * @param {Set<string>} opened the webhook entries opened, kept open
 */
function entryOf(entry, key, isNew, opened) {
  const time = h("time", { dateTime: entry.at }, entry.at.slice(0, 16).replace("T", " "));
  const attrs = { className: `${entry.kind}${isNew ? " new" : ""}`, "data-fresh": key };
  if (entry.kind === "webhooks") {
    const details = /** @type {HTMLDetailsElement} */ (
      h(
        "details",
        {
          className: "webhooks",
          open: opened.has(key),
          ontoggle: () => (details.open ? opened.add(key) : opened.delete(key)),
        },
        h("summary", null, time, " ", entry.text),
        h("ul", null, ...(entry.details ?? []).map((line) => h("li", null, line))),
      )
    );
    return h("li", attrs, details);
  }
  return h(
    "li",
    attrs,
    time,
    " ",
    entry.kind === "tier" ? h("span", { "aria-hidden": "true", className: "star" }, "★ ") : null,
    entry.text,
  );
}

/** @param {Brief} c */
function labelOf(c) {
  const name = c.name ?? c.source_id ?? c.id;
  const contact = c.email ?? c.source_id;
  return contact && contact !== name ? `${name} (${contact})` : name;
}
