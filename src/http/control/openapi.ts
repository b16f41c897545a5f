import { ADMIN_TOKEN_HEADER } from "./admin-token.js";
import { feedBatchSchema, feedPaths } from "./openapi-feed.js";
import type { Schema } from "./openapi-operation.js";
import {
  clockAndKeyPaths,
  journalAndFaultPaths,
  projectPaths,
  settingsPaths,
  viewPaths,
} from "./openapi-paths.js";
import { componentSchemas } from "./openapi-schemas.js";
import { webhookPaths, webhookSchemas } from "./openapi-webhooks.js";
import { VERSION } from "./version.js";

let cached: Schema | undefined;

/** The control API's OpenAPI 3.1 document, served at /__mock/openapi.json. */
export function controlOpenApi(): Schema {
  cached ??= {
    openapi: "3.1.0",
    info: {
      title: "loyalty-mock control API",
      version: VERSION,
      description:
        "Steers the emulator: projects (tenants), their clocks, API keys, request journal, fault rules, settings, " +
        "webhook endpoints and deliveries, read-only views of their data, and a live feed of its changes. Errors use the service's error object.",
    },
    security: [{}, { adminToken: [] }],
    components: {
      securitySchemes: { adminToken: { type: "apiKey", in: "header", name: ADMIN_TOKEN_HEADER } },
      schemas: { ...componentSchemas(), ...webhookSchemas(), FeedBatch: feedBatchSchema },
    },
    paths: {
      ...projectPaths(),
      ...clockAndKeyPaths(),
      ...journalAndFaultPaths(),
      ...settingsPaths(),
      ...viewPaths(),
      ...webhookPaths(),
      ...feedPaths(),
    },
  };
  return cached;
}
