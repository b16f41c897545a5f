import { describe, expect, it } from "vitest";
import { CONTROL_ROUTES, controlOpenApi } from "../../src/http/control/table.js";
import { control, controlDocument, validateControl } from "../helpers/control.js";
import { buildWorld } from "../helpers/world.js";

/** Every (method, path template) of the control route table, in OpenAPI's spelling. */
function tableOperations(): string[] {
  return CONTROL_ROUTES.map((row) => `${row.method.toLowerCase()} /__mock${row.path}`).sort();
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
    const documented = Object.entries(controlDocument.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
      .sort();
    expect(documented).toEqual(tableOperations());
    expect(documented).toContain("get /__mock/projects/{projectId}/state");
    expect(documented).toContain("put /__mock/projects/{projectId}/state");
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
