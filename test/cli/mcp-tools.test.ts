import Ajv2020Module from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { controlTools, toolNameOf } from "../../src/cli/mcp/control-tools.js";
import { operationTools } from "../../src/cli/mcp/operation-tools.js";
import { allTools } from "../../src/cli/mcp/server.js";
import { type ControlRoute, row } from "../../src/http/control/route-table.js";
import { CONTROL_ROUTES } from "../../src/http/control/table.js";
import { OPERATIONS } from "../../src/http/operations/table.js";

/**
 * The MCP server's tools are derived, not declared: one per control route (from the control API's OpenAPI
 * document, itself generated from the control table) and one per operation row. A new route is a new tool, with
 * the schema its row declares; every tool's input schema is valid JSON Schema. test/slow/mcp.test.ts drives them
 * through the SDK's client over stdio.
 */

const ajv = new Ajv2020Module.default({ strict: false, validateFormats: false });

describe("the MCP server's tools", () => {
  const tools = allTools("0.0.0");

  it("has one tool per control route but the live feed, one per operation, and the four of its own", () => {
    const routes = CONTROL_ROUTES.filter((route) => route.stream !== "text/event-stream");
    const names = tools.map((tool) => tool.name);
    for (const route of routes) expect(names).toContain(toolNameOf(route.method, route.path));
    expect(tools).toHaveLength(routes.length + OPERATIONS.length + 4);
    expect(new Set(names).size).toBe(names.length);
    // One per row, a new row too (test/slow/adding-an-operation.test.ts adds one).
    const operations = operationTools().map((tool) => tool.name);
    expect(operations).toHaveLength(OPERATIONS.length);
    expect(operations).toEqual(
      expect.arrayContaining([
        "operation_generate_token",
        "operation_add_member",
        "operation_get_location",
        "operation_track_event",
        "operation_create_tier",
        "operation_delete_incentive",
      ]),
    );
  });

  it("names tools by method and path, the project's id left out", () => {
    expect(toolNameOf("POST", "/projects/{projectId}/clock")).toBe("post_project_clock");
    expect(toolNameOf("GET", "/projects/{projectId}/faults/{faultId}")).toBe("get_project_faults_item");
    expect(toolNameOf("POST", "/projects/{projectId}/snapshots/{name}/restore")).toBe(
      "post_project_snapshots_restore",
    );
    expect(toolNameOf("GET", "/openapi.json")).toBe("get_openapi_json");
    expect(toolNameOf("GET", "/projects")).toBe("get_projects");
  });

  // Each schema compiled is test/slow/mcp.test.ts's (a second of CPU); here, that each stands alone.
  it("gives every tool an object schema standing alone, its references inside it", () => {
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      const text = JSON.stringify(tool.inputSchema);
      expect(text, tool.name).not.toContain("#/components/");
      for (const [, name] of text.matchAll(/"#\/\$defs\/([^"]+)"/g))
        expect(Object.keys((tool.inputSchema.$defs ?? {}) as object), tool.name).toContain(name);
    }
  });

  it("describes the tier's body in both Loyalty v2 forms, the beta's and the generally available one", () => {
    const tier = tools.find((tool) => tool.name === "operation_create_tier");
    const validate = ajv.compile(tier?.inputSchema ?? {});
    const body = (qualification_rules: unknown) => ({
      id: "lts_1",
      body: { name: "Gold", qualification_rules },
    });
    expect(validate(body({ type: "POINTS", min_value: 5000 }))).toBe(true);
    expect(
      validate(body({ type: "POINTS_AND_SEGMENT", points: { min_value: 5000 }, segment: { id: "s" } })),
    ).toBe(true);
    expect(validate(body({ type: "POINTS", min_value: 5000, points: { min_value: 5000 } }))).toBe(false);
  });

  it("takes a route's parameters and body as the route declares them", () => {
    const fault = tools.find((tool) => tool.name === "post_project_faults");
    const validate = ajv.compile(fault?.inputSchema ?? {});
    expect(validate({ projectId: "demo", body: { path: "/v1/events", action: "error", status: 503 } })).toBe(
      true,
    );
    expect(validate({ projectId: "demo", body: { path: "/v1/events", action: "explode" } })).toBe(false);
    expect(validate({ body: { path: "/v1/events", action: "error", status: 503 } })).toBe(false);
    const journal = tools.find((tool) => tool.name === "journal");
    expect(Object.keys((journal?.inputSchema.properties ?? {}) as object)).toEqual(
      expect.arrayContaining([
        "projectId",
        "method",
        "path",
        "operation",
        "status",
        "since",
        "until",
        "limit",
      ]),
    );
  });

  it("makes a new control route a new tool, with no other change", () => {
    const added = row({
      method: "POST",
      path: "/projects/{projectId}/widgets/{widgetId}/polish",
      tag: "widgets",
      summary: "Polish a widget",
      body: z.strictObject({ shine: z.int().min(1).max(10) }),
      handle: () => ({}),
    }) as ControlRoute;
    const derived = controlTools([...CONTROL_ROUTES, added]);
    const tool = derived.find((one) => one.name === "post_project_widgets_polish");
    expect(tool).toMatchObject({ title: "Polish a widget" });
    expect(tool?.description).toContain("POST /__mock/projects/{projectId}/widgets/{widgetId}/polish");
    const validate = ajv.compile(tool?.inputSchema ?? {});
    expect(validate({ projectId: "demo", widgetId: "w1", body: { shine: 3 } })).toBe(true);
    expect(validate({ projectId: "demo", widgetId: "w1", body: { shine: 11 } })).toBe(false);
    expect(derived).toHaveLength(controlTools().length + 1);
  });

  it("sends a tool's arguments to the route they name, as given", async () => {
    const tool = tools.find((one) => one.name === "get_project_faults_item");
    const sent: unknown[] = [];
    const context = {
      target: { url: "http://127.0.0.1:1", maxAnswerBytes: 1000, reader: "mcp" },
      send: async (call: unknown) => {
        sent.push(call);
        return { what: "GET", status: 404, requestId: "v-1", body: { code: 404, key: "not_found" } };
      },
    };
    const result = await tool?.call({ projectId: "a b", faultId: "flt_1" }, context);
    expect(sent).toEqual([{ method: "GET", path: "/__mock/projects/a%20b/faults/flt_1", query: {} }]);
    expect(result).toMatchObject({ isError: true, structuredContent: { status: 404, request_id: "v-1" } });
  });
});
