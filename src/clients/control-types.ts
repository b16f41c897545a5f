import type { z } from "zod";
import type { templateRequestSchema } from "../domain/projects/create.js";
import type { ProjectDocumentInput } from "../domain/projects/project-document.js";
import type { newWebhookSchema, webhookSchema } from "../domain/webhooks/endpoint.js";
import type {
  apiKeyAnswer,
  clearedAnswer,
  clockAnswer,
  createdProjectAnswer,
  deletedAnswer,
  faultAnswer,
  healthAnswer,
  journalEntryAnswer,
  projectAnswer,
  settingsAnswer,
} from "../http/control/answers.js";
import type { webhookDeliveryAnswer } from "../http/control/answers-webhooks.js";
import type { moveClockBody } from "../http/control/clock.js";
import type { faultInputSchema } from "../http/control/fault-input.js";
import type { operationAnswer } from "../http/control/operations.js";
import type { settingsPatchBody } from "../http/control/settings.js";
import type { saveSnapshotBody, snapshotAnswer } from "../http/control/snapshots.js";

/**
 * What the control client sends and gets, typed from the very schemas the control API documents and checks them
 * with (http/control/): a field added to an answer is in the client's type at once. Type imports only, so the
 * client loads none of the server.
 */

export type Health = z.output<typeof healthAnswer>;
export type Operation = z.output<typeof operationAnswer>;
export type ProjectView = z.output<typeof projectAnswer>;
export type CreatedProject = z.output<typeof createdProjectAnswer>;
export type ApiKey = z.output<typeof apiKeyAnswer>;
export type Deleted = z.output<typeof deletedAnswer>;
export type Cleared = z.output<typeof clearedAnswer>;
export type ClockView = z.output<typeof clockAnswer>;
export type Fault = z.output<typeof faultAnswer>;
export type JournalEntry = z.output<typeof journalEntryAnswer>;
export type ProjectSettingsView = z.output<typeof settingsAnswer>;
export type Snapshot = z.output<typeof snapshotAnswer>;
export type Webhook = z.output<typeof webhookSchema>;
export type WebhookDelivery = z.output<typeof webhookDeliveryAnswer>;

/** A new project: a copy of a loaded project's fixtures (`{ template: "demo" }`), or a whole project document. */
export type NewProject = z.input<typeof templateRequestSchema> | ProjectDocumentInput;
/** `{ advance_seconds }`, `{ set }`, or `{ freeze }` with either. */
export type MoveClock = z.input<typeof moveClockBody>;
export type NewFault = z.input<typeof faultInputSchema>;
export type SettingsPatch = z.input<typeof settingsPatchBody>;
export type SaveSnapshot = Omit<z.input<typeof saveSnapshotBody>, "name">;
export type NewWebhook = z.input<typeof newWebhookSchema>;

/** The journal's filters (GET .../requests): a list is sent comma-separated. */
export interface JournalFilter {
  method?: string | readonly string[];
  /** An exact path or a pattern: `{name}` or `*` for one segment, `**` for anything. */
  path?: string;
  /** Operation names, as GET /__mock/operations lists them (`addMember`). */
  operation?: string | readonly string[];
  /** Statuses or classes: `404`, `"4xx"`. */
  status?: string | number | readonly (string | number)[];
  /** ISO 8601 instants on the project's clock. */
  since?: string;
  until?: string;
  /** Only the newest this many. */
  limit?: number;
}

/** The outbox's filters (GET .../webhooks/deliveries). */
export interface DeliveryFilter {
  type?: string;
  status?: WebhookDelivery["status"];
  webhook_id?: string;
  limit?: number;
}
