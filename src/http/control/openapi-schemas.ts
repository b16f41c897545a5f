import { z } from "zod";
import { newApiKeySchema } from "../../domain/auth/api-key.js";
import { campaignSchema } from "../../domain/campaigns/campaign.js";
import { customerSchema } from "../../domain/customers/customer.js";
import { earningRuleSchema } from "../../domain/earning-rules/earning-rule.js";
import { recordedEventSchema } from "../../domain/events/event.js";
import { eventSchemaSchema } from "../../domain/events/event-schema.js";
import { incentiveSchema } from "../../domain/incentives/incentive.js";
import { locationSchema } from "../../domain/locations/location.js";
import { templateRequestSchema } from "../../domain/projects/create.js";
import { projectDocumentSchema } from "../../domain/projects/project-document.js";
import { projectSettingsSchema, V2_AUTH_MODES } from "../../domain/projects/settings.js";
import { publicationSchema } from "../../domain/publications/publication.js";
import { segmentSchema } from "../../domain/segments/segment.js";
import { tierStructureSchema } from "../../domain/tiers/tier-structure.js";
import { voucherSchema } from "../../domain/vouchers/voucher.js";
import { FAULT_ACTIONS } from "../../emulation/faults/fault-rules.js";
import { rateLimitSchema } from "../../emulation/rate-limiter.js";
import { faultInputSchema } from "./fault-input.js";

type Schema = Record<string, unknown>;

/** JSON Schema of a zod schema, as OpenAPI 3.1 embeds it: the request side (`input`) or what is stored (`output`). */
export function fromZod(schema: z.ZodType, io: "input" | "output"): Schema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Schema;
  return rest;
}

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str: Schema = { type: "string" };
const int: Schema = { type: "integer" };
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: "null" }] });
const dateTime: Schema = { type: "string", format: "date-time" };

/** An object with exactly these properties, all present. */
function exact(properties: Record<string, Schema>): Schema {
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

/** The real service's list envelope, which the control API's lists follow. */
export function listSchema(dataRef: string, item: Schema): Schema {
  return exact({
    object: { const: "list" },
    data_ref: { const: dataRef },
    [dataRef]: { type: "array", items: item },
    total: int,
  });
}

/** A posted project document: the fixture format, with the project id and key credentials optional. */
function postedDocument(): Schema {
  const schema = fromZod(projectDocumentSchema, "input") as {
    properties: { project: { required?: string[] }; api_keys: { items: { required?: string[] } } };
  };
  schema.properties.project.required = [];
  schema.properties.api_keys.items.required = [];
  return schema as unknown as Schema;
}

const effectiveSettings = exact({
  v2_auth_mode: { enum: [...V2_AUTH_MODES] },
  token_grace_seconds: int,
  rate_limit: nullable(fromZod(rateLimitSchema, "output")),
  journal_size: int,
});
/** What the control API's answers look like, written out: these shapes are the emulator's own. */
function projectAnswers(): Record<string, Schema> {
  return {
    Error: {
      type: "object",
      properties: {
        code: int,
        key: str,
        message: str,
        details: str,
        request_id: str,
        resource_id: str,
        resource_type: str,
      },
      required: ["code", "key", "message", "request_id"],
    },
    Health: exact({ status: { const: "ok" }, version: str, uptime_s: int, projects: int }),
    Project: exact({
      object: { const: "project" },
      id: str,
      name: str,
      now: dateTime,
      settings: ref("ProjectSettings"),
      api_keys: { type: "array", items: str },
      counts: { type: "object", additionalProperties: int },
    }),
    CreatedProject: exact({
      object: { const: "project" },
      project_id: str,
      name: str,
      app_id: str,
      app_token: str,
      api_keys: { type: "array", items: ref("ApiKey") },
      now: dateTime,
      template: nullable(str),
    }),
    ApiKey: exact({
      object: { const: "api_key" },
      app_id: str,
      app_token: str,
      client_id: str,
      name: nullable(str),
      permissions: { type: "array", items: str },
      ip_allowlist: { type: "array", items: str },
      status: { enum: ["ACTIVE", "BLOCKED"] },
      blocked_at: nullable(dateTime),
    }),
    Deleted: {
      type: "object",
      properties: { object: str, id: str, app_id: str, deleted: { const: true } },
      required: ["object", "deleted"],
      additionalProperties: false,
    },
    Cleared: exact({ object: str, deleted: int }),
    Clock: exact({
      object: { const: "clock" },
      project_id: str,
      now: dateTime,
      offset_ms: { type: "number" },
    }),
    MoveClock: {
      oneOf: [
        exact({
          advance_seconds: {
            type: "number",
            description: "Seconds to move the clock; negative moves it back.",
          },
        }),
        exact({ set: { ...dateTime, description: "The moment the project's clock shows from now on." } }),
      ],
    },
  };
}

function trafficAnswers(): Record<string, Schema> {
  return {
    Fault: exact({
      object: { const: "fault" },
      id: str,
      method: str,
      path: str,
      action: { enum: [...FAULT_ACTIONS] },
      status: nullable(int),
      error: nullable({
        type: "object",
        properties: { key: str, message: str, details: str },
        required: ["key", "message"],
      }),
      headers: { type: "object", additionalProperties: str },
      latency_ms: int,
      times: nullable(int),
      remaining: nullable(int),
      matched: int,
      created_at: dateTime,
    }),
    JournalEntry: exact({
      request_id: str,
      time: dateTime,
      method: str,
      path: str,
      query: { type: "object" },
      headers: { type: "object", additionalProperties: { anyOf: [str, { type: "array", items: str }] } },
      body: {},
      status: nullable(int),
      response_body: {},
      duration_ms: int,
      authenticated: { type: "boolean" },
      fault: nullable(exact({ id: str, action: { enum: [...FAULT_ACTIONS] } })),
      rate_limited: { type: "boolean" },
    }),
    Settings: exact({
      object: { const: "settings" },
      project_id: str,
      settings: ref("ProjectSettings"),
      effective: effectiveSettings,
      rate_limit_window: nullable(exact({ used: int, remaining: int, resets_at: dateTime })),
    }),
    SettingsPatch: {
      type: "object",
      additionalProperties: false,
      description:
        "The fields given replace the project's own; null removes one so the server's default applies.",
      properties: {
        v2_auth_mode: nullable({ enum: [...V2_AUTH_MODES] }),
        token_grace_seconds: nullable(int),
        rate_limit: nullable(fromZod(rateLimitSchema, "input")),
        journal_size: nullable(int),
      },
    },
  };
}

/** Shapes the domain's zod schemas already define: request bodies, the project document and stored records. */
function resourceSchemas(): Record<string, Schema> {
  return {
    ProjectDocument: fromZod(projectDocumentSchema, "output"),
    ProjectDocumentInput: fromZod(projectDocumentSchema, "input"),
    PostedProjectDocument: postedDocument(),
    TemplateRequest: fromZod(templateRequestSchema, "input"),
    ProjectSettings: fromZod(projectSettingsSchema, "output"),
    NewApiKey: fromZod(newApiKeySchema, "input"),
    NewFault: fromZod(faultInputSchema, "input"),
    Customer: fromZod(customerSchema, "output"),
    Publication: fromZod(publicationSchema, "output"),
    RecordedEvent: fromZod(recordedEventSchema, "output"),
    Voucher: fromZod(voucherSchema, "output"),
    // The stored campaign is the object before the transform that settles join_once.
    Campaign: fromZod(campaignSchema.in, "output"),
    Location: fromZod(locationSchema, "output"),
    Segment: fromZod(segmentSchema, "output"),
    TierStructure: fromZod(tierStructureSchema, "output"),
    Incentive: fromZod(incentiveSchema, "output"),
    EarningRule: fromZod(earningRuleSchema, "output"),
    EventSchema: fromZod(eventSchemaSchema, "output"),
  };
}

export function componentSchemas(): Record<string, Schema> {
  return { ...projectAnswers(), ...trafficAnswers(), ...resourceSchemas() };
}
