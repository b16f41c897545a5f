// Sends control API calls and checks every answer against the control API's own OpenAPI document, the one
// served at /__mock/openapi.json, so the document cannot drift from what the server does.
import type { ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Express } from "express";
import type request from "supertest";
import { expect } from "vitest";
import { controlOpenApi } from "../../src/http/control/table.js";
import { type Call, send } from "./http.js";

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
  components: { schemas: Record<string, unknown> };
};
const doc = controlOpenApi() as unknown as Doc;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: "control", components: doc.components, paths: doc.paths });

const templates = Object.keys(doc.paths)
  .map((template) => ({ template, segments: template.split("/") }))
  .sort((a, b) => literalCount(b.segments) - literalCount(a.segments));

function literalCount(segments: string[]): number {
  return segments.filter((segment) => !segment.startsWith("{")).length;
}

/** The document's path template for a concrete control path, or undefined. */
export function controlTemplate(path: string): string | undefined {
  const segments = (path.split("?")[0] ?? path).split("/");
  return templates.find(
    (t) =>
      t.segments.length === segments.length &&
      t.segments.every((p, i) => (p.startsWith("{") ? (segments[i] ?? "") !== "" : p === segments[i])),
  )?.template;
}

const validators = new Map<string, ValidateFunction>();
const escapeToken = (token: string) => encodeURIComponent(token.replace(/~/g, "~0").replace(/\//g, "~1"));

function validatorFor(template: string, method: string, status: number): ValidateFunction {
  const operation = doc.paths[template]?.[method];
  if (!operation) throw new Error(`control OpenAPI: no ${method.toUpperCase()} ${template}`);
  if (!operation.responses[String(status)])
    throw new Error(`control OpenAPI: ${method.toUpperCase()} ${template} does not list status ${status}`);
  const pointer = [
    "paths",
    template,
    method,
    "responses",
    String(status),
    "content",
    "application/json",
    "schema",
  ];
  const ref = `control#/${pointer.map(escapeToken).join("/")}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`control OpenAPI: no schema at ${ref}`);
    validators.set(ref, validate);
  }
  return validate;
}

/** Throws unless the body matches what the document says the route answers with this status. */
export function validateControl(method: string, path: string, status: number, body: unknown): void {
  const template = controlTemplate(path);
  if (!template) {
    // Unknown control paths answer 404 in the error object; anything else must be documented.
    if (status !== 404 && status !== 401) throw new Error(`control OpenAPI: ${path} is not documented`);
    expect(body).toMatchObject({ code: status, key: status === 404 ? "not_found" : "unauthorized" });
    return;
  }
  const m = method.toLowerCase();
  if (status === 405) {
    expect(doc.paths[template]?.[m]).toBeUndefined();
    expect(body).toMatchObject({ code: 405, message: "HTTP Method Not Allowed" });
    expect(body).not.toHaveProperty("key");
    return;
  }
  if (status === 204) {
    const response = doc.paths[template]?.[m]?.responses["204"];
    if (!response) throw new Error(`control OpenAPI: ${method} ${template} does not list status 204`);
    expect(response.content).toBeUndefined();
    return;
  }
  const validate = validatorFor(template, m === "head" ? "get" : m, status);
  if (!validate(body))
    throw new Error(
      `${method} ${template} -> ${status}: ${JSON.stringify(validate.errors, null, 1)}\nbody: ${JSON.stringify(body).slice(0, 2000)}`,
    );
}

/** One control call over real HTTP (supertest): request id, JSON type, and the body checked against the document. */
export async function control(app: Express, call: Call): Promise<request.Response> {
  return send(app, call, validateControl);
}

export { doc as controlDocument };
