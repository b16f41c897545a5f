import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv2020Module from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMcp } from "../../src/cli/mcp/command.js";
import { docBlock } from "../helpers/consumer.js";
import { build, childEnv, ROOT } from "../helpers/process.js";

/**
 * `loyalty-mock mcp`, driven as an agent drives it: the MCP SDK's own client, over stdio, with the built command
 * (`--in-process`: a server of its own on the embedded fixtures). An agent's day in order: create a project, move
 * its clock, inject a fault, call the operation the fault fails, read the journal entry that says so, save and
 * restore a snapshot. The admin token comes from the environment and appears in no answer.
 */

const ADMIN_TOKEN = "mcp-admin-s3cret-token";

/** docs/guide/agents.md's configuration for each client, by its section: the server entry it starts. */
const CLIENTS = ["### Claude Code", "### Claude Desktop", "### VS Code", "### Cursor"];
interface Entry {
  type?: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}
function entryOf(heading: string): Entry {
  const config = JSON.parse(docBlock("docs/guide/agents.md", heading, "json")) as {
    mcpServers?: Record<string, Entry>;
    servers?: Record<string, Entry>;
  };
  const entry = (config.mcpServers ?? config.servers)?.["loyalty-mock"];
  if (!entry) throw new Error(`agents.md, ${heading}: no loyalty-mock server`);
  return entry;
}

type Result = Awaited<ReturnType<Client["callTool"]>>;
const textOf = (result: Result) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join("\n");
const structured = (result: Result) =>
  result.structuredContent as { status: number; body: Record<string, unknown> };

describe("loyalty-mock mcp over stdio", () => {
  let client: Client;
  let stderr = "";
  const answers: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    answers.push(JSON.stringify(result));
    return result;
  };

  beforeAll(async () => {
    build();
    // The command Claude Code's configuration gives (npx loyalty-mock ...), run as the built bin.
    const { command, args } = entryOf("### Claude Code");
    expect([command, args[0]]).toEqual(["npx", "loyalty-mock"]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, "dist", "main.js"), ...args.slice(1)],
      env: childEnv({ LOYALTY_MOCK_ADMIN_TOKEN: ADMIN_TOKEN }) as Record<string, string>,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    client = new Client({ name: "loyalty-mock-test", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("is configured in agents.md for Claude Code, Claude Desktop, VS Code and Cursor with the command's own flags", () => {
    for (const heading of CLIENTS) {
      const { command, args, type, env } = entryOf(heading);
      expect([command, ...args.slice(0, 2)], heading).toEqual(["npx", "loyalty-mock", "mcp"]);
      expect(parseMcp(args.slice(2)), heading).toMatchObject({ command: "mcp" });
      if (heading === "### VS Code") expect(type).toBe("stdio");
      for (const name of Object.keys(env ?? {})) expect(name).toBe("LOYALTY_MOCK_ADMIN_TOKEN");
    }
  });

  it("lists a tool for each control route and operation, and play, trigger, verify_replay and journal", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      "post_projects",
      "post_project_clock",
      "post_project_faults",
      "get_project_requests",
      "post_project_snapshots",
      "post_project_snapshots_restore",
      "operation_track_event",
      "operation_create_tier",
      "journal",
      "play",
      "trigger",
      "verify_replay",
    ])
      expect(names).toContain(name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("gives every tool an input schema that is valid JSON Schema (2020-12)", async () => {
    const { tools } = await client.listTools();
    const ajv = new Ajv2020Module.default({ strict: false, validateFormats: false });
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(ajv.validateSchema(tool.inputSchema), `${tool.name}: ${ajv.errorsText()}`).toBe(true);
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
    }
  });

  it("creates a project, moves its clock, fails a call with a fault, tells it in the journal, saves and restores", async () => {
    const created = await call("post_projects", { body: { template: "demo", project_id: "agent" } });
    expect(created.isError ?? false).toBe(false);
    expect(structured(created).status).toBe(201);

    const moved = await call("post_project_clock", { projectId: "agent", body: { advance_seconds: 86_400 } });
    expect(structured(moved).status).toBe(200);
    expect(structured(moved).body.now).toMatch(/^\d{4}-\d\d-\d\dT/);

    const saved = await call("post_project_snapshots", {
      projectId: "agent",
      body: { name: "before-fault" },
    });
    expect(structured(saved).status).toBe(201);

    const fault = await call("post_project_faults", {
      projectId: "agent",
      body: {
        method: "POST",
        path: "/v1/events",
        action: "error",
        status: 503,
        error: { details: "Injected by the agent's test" },
      },
    });
    expect(structured(fault).status).toBe(201);

    const failed = await call("operation_track_event", {
      projectId: "agent",
      body: { event: "cart_abandoned", customer: { source_id: "agent-customer" } },
    });
    expect(failed.isError).toBe(true);
    expect(structured(failed).status).toBe(503);
    expect(structured(failed).body).toMatchObject({ code: 503, details: "Injected by the agent's test" });

    // A fault answers before the operation runs: the journal names the operation whose route the request took,
    // and tells it in that operation's sentence.
    const journal = await call("journal", { projectId: "agent", path: "/v1/events" });
    expect(textOf(journal)).toMatch(
      / 503 .* was refused: 503, Injected by the agent's test \(request v-\w+\)/,
    );
    const entries = (
      journal.structuredContent as { entries: { entry: { status: number; operation: string | null } }[] }
    ).entries;
    expect(entries.at(-1)?.entry).toMatchObject({ status: 503, operation: "trackEvent" });

    const restored = await call("post_project_snapshots_restore", {
      projectId: "agent",
      name: "before-fault",
    });
    expect(structured(restored).status).toBe(200);
    const faults = await call("get_project_faults", { projectId: "agent" });
    expect(structured(faults).body.total).toBe(0);
    const ok = await call("operation_track_event", {
      projectId: "agent",
      body: { event: "cart_abandoned", customer: { source_id: "agent-customer" } },
    });
    expect(structured(ok).status).toBe(200);
  });

  it("answers a refusal with the service's error object, and a v2 operation with a token got first", async () => {
    const tier = await call("operation_create_tier", {
      projectId: "agent",
      id: "lts_d0000000000000001",
      body: {
        name: "Agent tier",
        qualification_rules: { type: "POINTS", min_value: 900_000_000, max_value: 900_000_999 },
      },
    });
    expect(structured(tier).status).toBe(200);
    const refused = await call("operation_add_member", {
      projectId: "agent",
      campaignId: "camp_nope",
      body: { customer: { source_id: "x" } },
    });
    expect(structured(refused)).toMatchObject({
      status: 404,
      body: { key: "not_found", resource_type: "campaign" },
    });
  });

  it("plays a scenario and triggers a notification", async () => {
    const played = await call("play", {
      projectId: "agent",
      document: {
        title: "Two steps",
        steps: [
          { type: "join", campaign: "camp_demo_loyalty", customer: { source_id: "p@example.com" } },
          { type: "event", event: "user_subscribed", customer: "p@example.com", metadata: { plan: "pro" } },
        ],
      },
    });
    expect(played.isError ?? false, textOf(played)).toBe(false);
    expect(textOf(played)).toMatch(/p@example.com joined camp_demo_loyalty/);
    const triggered = await call("trigger", { projectId: "agent", type: "customer.rewarded.loyalty_points" });
    expect(textOf(triggered)).toMatch(/^whd_\w+ customer\.rewarded\.loyalty_points recorded in the outbox/);
  });

  it("never echoes the admin token", () => {
    expect(answers.length).toBeGreaterThan(5);
    for (const answer of answers) expect(answer).not.toContain(ADMIN_TOKEN);
    expect(stderr).not.toContain(ADMIN_TOKEN);
  });
});
