import { z } from "zod";
import { templateRequestSchema } from "../../domain/projects/create.js";
import { projectDocumentSchema } from "../../domain/projects/project-document.js";
import { projectSettingsSchema } from "../../domain/projects/settings.js";
import { newWebhookSchema, webhookSchema } from "../../domain/webhooks/endpoint.js";
import {
  apiKeyAnswer,
  clearedAnswer,
  clockAnswer,
  createdProjectAnswer,
  deletedAnswer,
  errorAnswer,
  faultAnswer,
  healthAnswer,
  journalEntryAnswer,
  projectAnswer,
  settingsAnswer,
} from "./answers.js";
import { feedBatchAnswer, webhookDeliveryAnswer, webhookEnvelopeAnswer } from "./answers-webhooks.js";
import { moveClockBody } from "./clock.js";
import { playAnswer } from "./demo/routes.js";
import { faultInputSchema } from "./fault-input.js";
import { newKeyBody } from "./keys.js";
import { operationAnswer } from "./operations.js";
import { settingsPatchBody } from "./settings.js";
import { saveSnapshotBody, snapshotAnswer } from "./snapshots.js";
import { VIEWS } from "./views.js";

export type JsonSchema = Record<string, unknown>;

/**
 * The named schemas of the document (components/schemas): where a route's schema, or a schema inside it, is one
 * of these, the document refers to it by name. Answers are converted as zod outputs (defaults applied), request
 * bodies as inputs (what a client may leave out), hence two lists.
 */
export const OUTPUT_COMPONENTS: Readonly<Record<string, z.ZodType>> = {
  Error: errorAnswer,
  Health: healthAnswer,
  Operation: operationAnswer,
  Project: projectAnswer,
  CreatedProject: createdProjectAnswer,
  ApiKey: apiKeyAnswer,
  Deleted: deletedAnswer,
  Cleared: clearedAnswer,
  Clock: clockAnswer,
  Fault: faultAnswer,
  JournalEntry: journalEntryAnswer,
  Settings: settingsAnswer,
  ProjectSettings: projectSettingsSchema,
  ProjectDocument: projectDocumentSchema,
  ...Object.fromEntries(VIEWS.map((view) => [view.component, view.schema])),
  Webhook: webhookSchema,
  WebhookEnvelope: webhookEnvelopeAnswer,
  WebhookDelivery: webhookDeliveryAnswer,
  FeedBatch: feedBatchAnswer,
  Snapshot: snapshotAnswer,
  Play: playAnswer,
};

export const INPUT_COMPONENTS: Readonly<Record<string, z.ZodType>> = {
  MoveClock: moveClockBody,
  NewApiKey: newKeyBody,
  NewFault: faultInputSchema,
  NewWebhook: newWebhookSchema,
  ProjectSettingsInput: projectSettingsSchema,
  SettingsPatch: settingsPatchBody,
  TemplateRequest: templateRequestSchema,
  ProjectDocumentInput: projectDocumentSchema,
  SaveSnapshot: saveSnapshotBody,
};

/**
 * A posted project document: the fixture format with the project id and key credentials optional, as the server
 * generates them (domain/projects/create.ts). Its schema fills them in before parsing, which zod's JSON Schema
 * cannot say: the input document, with those required lists emptied.
 */
export function postedDocumentComponent(): JsonSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(projectDocumentSchema, {
    io: "input",
    unrepresentable: "any",
  }) as unknown as JsonSchema & {
    properties: { project: { required?: string[] }; api_keys: { items: { required?: string[] } } };
  };
  schema.properties.project.required = [];
  schema.properties.api_keys.items.required = [];
  return schema;
}
