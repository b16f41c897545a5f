// @ts-check
import { api, setToken, whenUnauthorized } from "./api.js";
import { rescaleCharts } from "./charts.js";
import { h, show } from "./dom.js";
import { openFeed } from "./feed.js";
import { controlsPanel } from "./panels/controls.js";
import { eventsPanel } from "./panels/events.js";
import { loyaltyPanel } from "./panels/loyalty.js";
import { membersPanel } from "./panels/members.js";
import { loadOperations } from "./panels/operations.js";
import { requestsPanel } from "./panels/requests.js";
import { webhooksPanel } from "./panels/webhooks.js";
import { presentationMode } from "./present.js";
import { refresher } from "./refresher.js";
import { requestsSentence } from "./status-line.js";
import { demoViews } from "./views/index.js";

/**
 * @typedef {{ projectId: string, say: (text: string) => void, refreshAll: () => void, changedHere: () => void }} Context
 * @typedef {{ topics: string[], collections?: string[], refresh: () => Promise<void> }} Panel
 * @typedef {{ panel: Panel, refresher: import("./refresher.js").Refresher }} Slot
 */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const picker = /** @type {HTMLSelectElement} */ ($("project"));
const status = $("feed-status");
/** @type {Context} */
const context = { projectId: "", say, refreshAll, changedHere };
/** What the user just did is said for a few seconds before the feed's news may replace it. */
let heldUntil = 0;
const HOLD_MS = 3000;

/** @param {string} text the outcome of something the user did */
function say(text) {
  heldUntil = Date.now() + HOLD_MS;
  show(status, text);
}

/** @param {string} text news from the feed */
function tell(text) {
  if (Date.now() >= heldUntil) show(status, text);
}

/**
 * Under a load test the feed says "changed" ten times a second. A panel shows a change at once when it has been
 * quiet, and otherwise fetches at most every MIN_GAP_MS, or every BUSY_GAP_MS while the project takes more than
 * BUSY_REQUESTS requests per batch (a load test, not a person or a test suite): nobody reads a panel faster, and
 * the server answers the page's calls on the same event loop as the operations.
 */
const MIN_GAP_MS = 500;
const BUSY_GAP_MS = 1500;
const BUSY_REQUESTS = 20;
/** Until when the project counts as busy: a while after the last batch that was. */
let busyUntil = 0;

const gap = () => (Date.now() < busyUntil ? BUSY_GAP_MS : MIN_GAP_MS);

/** Quiet: no batch has been busy lately, so a change is shown at once. */
const quiet = () => Date.now() >= busyUntil;

/** @type {Slot[]} */
let slots = [];
// The audience views and the demo controls (views/): panels like the others, shown one view at a time.
const views = demoViews(context, (panel) => {
  const slot = slots.find((one) => one.panel === panel);
  if (slot) slot.refresher.now();
});
slots = [
  ...views,
  membersPanel($("members"), context),
  eventsPanel($("events"), context),
  loyaltyPanel($("loyalty"), context),
  requestsPanel($("requests"), context),
  webhooksPanel($("webhooks"), context),
  controlsPanel($("controls"), context),
].map((panel) => ({ panel, refresher: refresher(() => panel.refresh(), { gap, quiet }) }));
/** @type {{ close(): void } | undefined} */
let feed;

/**
 * Whether a batch of changes touches what a panel shows.
 * @param {Panel} panel
 * @param {import("./feed.js").FeedBatch} batch
 */
function concerns(panel, batch) {
  if (batch.topics.includes("project")) return true;
  return panel.topics.some((topic) =>
    topic === "records"
      ? batch.topics.includes("records") &&
        (!panel.collections || panel.collections.some((c) => batch.collections.includes(c)))
      : batch.topics.includes(topic),
  );
}

function refreshAll() {
  for (const slot of slots) slot.refresher.now();
}

/** Whether the live feed is open: what the page changes, it then hears of in the feed's next batch. */
let live = false;

/**
 * Something the page itself changed (a snapshot restored): the feed tells every panel in its next batch, so the
 * panels are not fetched twice for it; without the feed, they are fetched now.
 */
function changedHere() {
  if (!live) refreshAll();
}

/** Requests the status line has not told yet, the last of them, when it last told, and a telling scheduled. */
let unsaid = 0;
/** @type {import("./feed.js").RequestSummary | undefined} */
let lastUnsaid;
let saidAt = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let telling;

/** @param {import("./feed.js").FeedBatch} batch */
function changed(batch) {
  if (batch.requests_count > BUSY_REQUESTS) busyUntil = Date.now() + 2 * BUSY_GAP_MS;
  for (const slot of slots) if (concerns(slot.panel, batch)) slot.refresher.changed();
  unsaid += batch.requests_count;
  // The app's token requests are not an audience's news (the activity leaves them out too): the last call named is
  // the last other one.
  lastUnsaid = batch.requests.findLast((r) => r.operation !== "generateToken") ?? lastUnsaid;
  if (!lastUnsaid) return tell(`Live. Changed: ${batch.topics.join(", ")}.`);
  // While the project is busy the status line speaks at most once a gap, and last of all after the load stops.
  const wait = Date.now() < busyUntil ? saidAt + BUSY_GAP_MS - Date.now() : 0;
  if (wait <= 0) sayRequests();
  else telling ??= setTimeout(sayRequests, wait);
}

function sayRequests() {
  clearTimeout(telling);
  telling = undefined;
  const last = lastUnsaid;
  if (!last) return;
  saidAt = Date.now();
  tell(requestsSentence(unsaid, last));
  unsaid = 0;
  lastUnsaid = undefined;
}

/** @param {string} projectId */
function select(projectId) {
  context.projectId = projectId;
  if (location.hash !== `#${projectId}`) history.replaceState(null, "", `#${encodeURIComponent(projectId)}`);
  feed?.close();
  live = false;
  let lost = false;
  feed = openFeed(projectId, {
    batch: changed,
    state: (state, detail) => {
      live = state === "live";
      if (state === "live") {
        say(`Live: showing project ${projectId} as it changes.`);
        // Back after a loss: what changed meanwhile was never told.
        if (lost) refreshAll();
        lost = false;
      } else {
        lost = true;
        say(state === "refused" ? `Feed refused: ${detail}` : "Feed lost; reconnecting…");
      }
    },
  });
  refreshAll();
}

/** The projects as the picker lists them; `current` stays chosen. @param {string | undefined} current */
function listProjects(/** @type {{ id: string, name: string }[]} */ projects, current) {
  show(
    picker,
    ...projects.map((p) => h("option", { value: p.id, selected: p.id === current }, `${p.name} (${p.id})`)),
  );
  // An option's `selected` is a property, not an attribute: a list shown already keeps its options, so say it.
  if (current) picker.value = current;
}

async function loadProjects() {
  const list = await api("/__mock/projects");
  const ids = list.projects.map((/** @type {{ id: string }} */ p) => p.id);
  const wanted = decodeURIComponent(location.hash.slice(1));
  const current = ids.includes(wanted)
    ? wanted
    : ids.includes(context.projectId)
      ? context.projectId
      : ids.includes("demo")
        ? "demo"
        : ids[0];
  listProjects(list.projects, current);
  if (current) select(current);
}

// Projects come and go through the control API (a CI job's own project): the list is read again when the
// picker is about to be used, never polled.
picker.addEventListener("focus", () => {
  api("/__mock/projects").then(
    (list) => listProjects(list.projects, context.projectId),
    () => undefined,
  );
});

picker.addEventListener("change", () => select(picker.value));
window.addEventListener("hashchange", () => {
  const id = decodeURIComponent(location.hash.slice(1));
  if (id && id !== context.projectId && [...picker.options].some((o) => o.value === id)) {
    picker.value = id;
    select(id);
  }
});

const large = $("large-type");
function setLarge(/** @type {boolean} */ on) {
  document.documentElement.classList.toggle("large", on);
  large.setAttribute("aria-pressed", String(on));
  localStorage.setItem("loyalty-mock-large-type", on ? "1" : "");
  // The charts draw on canvases: they follow the page's type size when told.
  rescaleCharts();
}
large.addEventListener("click", () => setLarge(!document.documentElement.classList.contains("large")));
setLarge(localStorage.getItem("loyalty-mock-large-type") === "1");
// Another script (or a test) may switch the class itself: the charts follow whatever sets the type size.
new MutationObserver(() => rescaleCharts()).observe(document.documentElement, {
  attributes: true,
  attributeFilter: ["class"],
});
presentationMode(() => rescaleCharts());

const dialog = /** @type {HTMLDialogElement} */ ($("token-dialog"));
whenUnauthorized(() => {
  feed?.close();
  if (!dialog.open) dialog.showModal();
});
$("token-form").addEventListener("submit", () => {
  setToken(/** @type {HTMLInputElement} */ ($("token")).value);
  start();
});

/**
 * What /__mock/health says of the control API, in the header: an open one is worth knowing about when the page
 * was reached over a network rather than on loopback.
 */
async function showControlMode() {
  const health = await api("/__mock/health");
  const open = health.control === "open";
  const mode = $("control-mode");
  mode.classList.toggle("open", open);
  // In presentation mode this is in the drawer, with the other controls: not a warning for an audience to read.
  show(mode, open ? "Control API: open (no admin token)" : "Control API: admin token required");
}

function start() {
  showControlMode().catch(() => undefined);
  // The status line names operations as people call them: their titles, read once.
  loadOperations().catch(() => undefined);
  loadProjects().catch((error) => {
    show($("token-error"), dialog.open ? String(error.message) : "");
    context.say(`Cannot list projects: ${error.message}`);
  });
}
start();
