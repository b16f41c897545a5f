import { type Send, segment } from "./control-call.js";
import type {
  ApiKey,
  Cleared,
  ClockView,
  Deleted,
  DeliveryFilter,
  Fault,
  JournalEntry,
  JournalFilter,
  MoveClock,
  NewFault,
  NewWebhook,
  ProjectSettingsView,
  ProjectView,
  SaveSnapshot,
  SettingsPatch,
  Snapshot,
  Webhook,
  WebhookDelivery,
} from "./control-types.js";

/** A list answer's array, by its `data_ref` (`{ object: "list", data_ref: "faults", faults: [...] }`). */
type List<K extends string, T> = { [P in K]: T[] };

/**
 * The control API of one project: each method one call (docs/reference/control-api.md). Lists come back as
 * their arrays; a refusal is thrown as a ControlError.
 */
export class ProjectControl {
  readonly id: string;
  readonly #send: Send;
  readonly #path: string;

  constructor(send: Send, id: string) {
    this.#send = send;
    this.id = id;
    this.#path = `/projects/${segment(id)}`;
  }

  #call<T>(method: string, path: string, input?: Parameters<Send>[2]): Promise<T> {
    return this.#send<T>(method, `${this.#path}${path}`, input);
  }

  async #list<K extends string, T>(key: K, path: string, query?: object): Promise<T[]> {
    const answer = await this.#call<List<K, T>>("GET", path, query && { query: { ...query } });
    return answer[key];
  }

  // The project itself.
  get() {
    return this.#call<ProjectView>("GET", "");
  }
  delete() {
    return this.#call<Deleted>("DELETE", "");
  }
  /** Back to its fixtures (or its template's): records, clock, journal, faults and outbox. */
  reset() {
    return this.#call<ProjectView>("POST", "/reset");
  }
  keys() {
    return this.#list<"api_keys", ApiKey>("api_keys", "/keys");
  }

  // Its clock.
  clock() {
    return this.#call<ClockView>("GET", "/clock");
  }
  moveClock(move: MoveClock) {
    return this.#call<ClockView>("POST", "/clock", { body: move });
  }

  // Its settings.
  settings() {
    return this.#call<ProjectSettingsView>("GET", "/settings");
  }
  updateSettings(patch: SettingsPatch) {
    return this.#call<ProjectSettingsView>("PATCH", "/settings", { body: patch });
  }

  // Fault rules.
  faults() {
    return this.#list<"faults", Fault>("faults", "/faults");
  }
  addFault(rule: NewFault) {
    return this.#call<Fault>("POST", "/faults", { body: rule });
  }
  deleteFault(faultId: string) {
    return this.#call<Deleted>("DELETE", `/faults/${segment(faultId)}`);
  }
  clearFaults() {
    return this.#call<Cleared>("DELETE", "/faults");
  }

  // The request journal, oldest first.
  requests(filter: JournalFilter = {}) {
    return this.#list<"requests", JournalEntry>("requests", "/requests", filter);
  }
  clearRequests() {
    return this.#call<Cleared>("DELETE", "/requests");
  }

  // Named snapshots.
  snapshots() {
    return this.#list<"snapshots", Snapshot>("snapshots", "/snapshots");
  }
  saveSnapshot(name: string, options: SaveSnapshot = {}) {
    return this.#call<Snapshot>("POST", "/snapshots", { body: { name, ...options } });
  }
  restoreSnapshot(name: string) {
    return this.#call<ProjectView>("POST", `/snapshots/${segment(name)}/restore`);
  }
  deleteSnapshot(name: string) {
    return this.#call<Deleted>("DELETE", `/snapshots/${segment(name)}`);
  }

  // Webhook endpoints, and the outbox of what was sent (or would have been).
  webhooks() {
    return this.#list<"webhooks", Webhook>("webhooks", "/webhooks");
  }
  addWebhook(endpoint: NewWebhook) {
    return this.#call<Webhook>("POST", "/webhooks", { body: endpoint });
  }
  deleteWebhook(webhookId: string) {
    return this.#call<undefined>("DELETE", `/webhooks/${segment(webhookId)}`);
  }
  deliveries(filter: DeliveryFilter = {}) {
    return this.#list<"deliveries", WebhookDelivery>("deliveries", "/webhooks/deliveries", filter);
  }
  clearDeliveries() {
    return this.#call<undefined>("DELETE", "/webhooks/deliveries");
  }
  resendDelivery(deliveryId: string) {
    return this.#call<WebhookDelivery>("POST", `/webhooks/deliveries/${segment(deliveryId)}/resend`);
  }
}
