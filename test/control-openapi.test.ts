import type { Router } from "express";
import { describe, expect, it } from "vitest";
import { controlOpenApi } from "../src/http/control/openapi.js";
import { controlRouter } from "../src/http/control/router.js";
import { stateRouter } from "../src/http/control/state.js";
import { createRegistry } from "../src/index.js";
import { ManualClock } from "../src/platform/clock.js";
import { control, controlDocument, validateControl } from "./helpers/control.js";
import { buildWorld } from "./helpers/world.js";

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every (method, path template) the control router answers, in OpenAPI's spelling. */
function routerOperations(router: Router): string[] {
  const operations: string[] = [];
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    if (!layer.route) continue;
    const path = `/__mock${layer.route.path.replace(/:(\w+)/g, "{$1}")}`;
    for (const method of Object.keys(layer.route.methods))
      if (method !== "_all") operations.push(`${method} ${path}`);
  }
  return operations.sort();
}

describe("GET /__mock/openapi.json", () => {
  it("serves the control API's OpenAPI 3.1 document", async () => {
    const { app } = buildWorld();
    const res = await control(app, { method: "GET", path: "/__mock/openapi.json" });
    expect(res.body).toEqual(JSON.parse(JSON.stringify(controlOpenApi())));
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.components.securitySchemes.adminToken).toEqual({
      type: "apiKey",
      in: "header",
      name: "X-Mock-Admin-Token",
    });
  });

  it("describes every control route, the state export and import included, and nothing else", () => {
    const registry = createRegistry({ clock: new ManualClock() });
    const router = controlRouter({ registry, bodyLimit: 1, startedAt: 0 });
    const documented = Object.entries(controlDocument.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
      .sort();
    expect(documented).toEqual(
      [...routerOperations(router), ...routerOperations(stateRouter({ registry }))].sort(),
    );
  });

  it("the state pair takes and gives a project document in the fixture format", () => {
    const state = controlDocument.paths["/__mock/projects/{projectId}/state"] as unknown as {
      get: { responses: Record<string, { content: { "application/json": { schema: unknown } } }> };
      put: { requestBody: { content: { "application/json": { schema: unknown } } } };
    };
    expect(state.get.responses["200"]?.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ProjectDocument",
    });
    expect(state.put.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ProjectDocumentInput",
    });
  });

  it("the test helper refuses answers the document does not allow", () => {
    expect(() => validateControl("GET", "/__mock/health", 200, { status: "ok" })).toThrow(/required/);
    expect(() => validateControl("GET", "/__mock/projects/demo/clock", 201, {})).toThrow(
      /does not list status 201/,
    );
    expect(() =>
      validateControl("GET", "/__mock/projects/demo/customers", 200, {
        object: "list",
        data_ref: "customers",
        customers: [{ id: 1 }],
        total: 1,
      }),
    ).toThrow();
    expect(() =>
      validateControl("GET", "/__mock/projects/demo/clock", 404, { code: 404, message: "x" }),
    ).toThrow(/required/);
  });
});
