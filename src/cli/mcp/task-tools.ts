import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CallFailed } from "../../clients/play/calls.js";
import { playScenario } from "../../clients/play/player.js";
import { projectKeyOf } from "../../clients/play/project-key.js";
import { parseScenario, type Scenario, shippedScenarios } from "../../clients/play/scenario.js";
import { expectOk, listed } from "../server-client.js";
import { triggerTypes } from "../trigger/command.js";
import { settledLine } from "../trigger/outbox-wait.js";
import { triggerNotification } from "../trigger/run.js";
import { runVerify } from "../verify/run.js";
import { failedResult, jsonText, type Tool, type ToolResult } from "./tool.js";

const projectId = { type: "string", description: "The project (demo unless given)" };
const projectOf = (args: Record<string, unknown>) =>
  typeof args.projectId === "string" ? args.projectId : "demo";

/**
 * The journal as an agent reads it: each entry as the dashboard's sentence (`Ada could not join Demo Loyalty
 * Program: 400, …`, read from the control API's activity, which tells it) and as the JSON the journal keeps. Its
 * arguments are the journal route's own (`requests`, the control tool of that route), so its filters are the
 * journal's.
 */
function journalTool(requests: Tool): Tool {
  return {
    name: "journal",
    title: "The request journal, as sentences and as JSON",
    description:
      "What the application sent to the project and what the stand-in answered, newest last: each entry as a " +
      "sentence (a refusal with the service's own message) and as the journal's JSON entry. Takes the journal's " +
      "filters; limit defaults to 20. Sentences are told for the newest 1,000 requests.",
    inputSchema: requests.inputSchema,
    annotations: { readOnlyHint: true },
    call: async (args, context) => {
      const answered = await requests.call({ limit: 20, ...args }, context);
      const entries = listed(((answered.structuredContent?.body ?? {}) as Record<string, unknown>) ?? {});
      if (answered.isError) return answered;
      const activity = listed(
        expectOk(
          await context.send({
            method: "GET",
            path: `/__mock/projects/${encodeURIComponent(projectOf(args))}/activity`,
            query: { limit: 1000 },
          }),
        ),
      );
      const sentences = new Map(activity.map((line) => [line.request_id, line.text]));
      const told = entries.map((entry) => ({ sentence: sentences.get(entry.request_id) ?? null, entry }));
      const lines = told.map(
        ({ sentence, entry }) =>
          `${String(entry.time)} ${String(entry.status ?? "-")} ${sentence ?? `${String(entry.method)} ${String(entry.path)}`} (request ${String(entry.request_id)})`,
      );
      return {
        content: [
          {
            type: "text",
            text: lines.length === 0 ? "The journal holds no such request." : lines.join("\n"),
          },
          { type: "text", text: jsonText(told) },
        ],
        structuredContent: { entries: told },
      };
    },
  };
}

/** A scenario given by name (a shipped one), by file, or whole as JSON. */
function scenarioOf(args: Record<string, unknown>): Scenario {
  if (args.document !== undefined) return parseScenario(JSON.stringify(args.document));
  const name = String(args.scenario ?? "");
  const shipped = shippedScenarios().find((one) => one.name === name);
  if (shipped) return shipped.scenario;
  return parseScenario(readFileSync(name, "utf8"));
}

const playTool: Tool = {
  name: "play",
  title: "Play a scenario (loyalty-mock play)",
  description:
    "Plays a customer's story through the public operations, as loyalty-mock play does, and answers each step's " +
    `line. The scenario is a shipped one by name (${shippedScenarios()
      .map(({ name }) => name)
      .join(
        ", ",
      )}), a scenario file, or a whole scenario document (title and steps: join, event, clock, tier, delete_incentive, pause).`,
  inputSchema: {
    type: "object",
    properties: {
      scenario: { type: "string", description: "A shipped scenario's name, or a scenario file's path" },
      document: { type: "object", description: "A whole scenario: {title, steps: [...]}" },
      projectId,
      speed: {
        type: "number",
        minimum: 0.01,
        maximum: 1000,
        description: "Pauses last their seconds divided by this (100)",
      },
    },
    additionalProperties: false,
  },
  call: async (args, { target }) => {
    let scenario: Scenario;
    try {
      scenario = scenarioOf(args);
    } catch (error) {
      return failedResult(`No scenario to play: ${(error as Error).message}`);
    }
    const project = projectOf(args);
    const keys = await projectKeyOf(target, project, target.adminToken);
    const lines: string[] = [];
    const result = await playScenario(scenario, {
      url: target.url,
      projectId: project,
      keys,
      adminToken: target.adminToken,
      speed: typeof args.speed === "number" ? args.speed : 100,
      maxAnswerBytes: target.maxAnswerBytes,
      print: (line) => lines.push(line),
    });
    return {
      content: [
        { type: "text", text: [`Played "${scenario.title}" in project ${project}:`, ...lines].join("\n") },
      ],
      structuredContent: { ...result, lines },
      ...(!result.ok && { isError: true }),
    };
  },
};

const triggerTool: Tool = {
  name: "trigger",
  title: "Cause a webhook notification (loyalty-mock trigger)",
  description:
    "Causes one notification through the public operations with the project's data, waits until the outbox shows " +
    `it delivered (or recorded, with no endpoint) and answers each delivery. The types, and how each is caused: ${triggerTypes()
      .map(({ type, how }) => `${type}: ${how}`)
      .join("; ")}.`,
  inputSchema: {
    type: "object",
    properties: {
      type: { type: "string", enum: triggerTypes().map(({ type }) => type) },
      projectId,
      customer: { type: "string", description: "The customer's source id (a new one unless given)" },
    },
    required: ["type"],
    additionalProperties: false,
  },
  call: async (args, { target }) => {
    const result = await triggerNotification({
      target,
      projectId: projectOf(args),
      type: String(args.type),
      customer: typeof args.customer === "string" ? args.customer : undefined,
    });
    if (!result.ok) return failedResult(result.message);
    return {
      content: [{ type: "text", text: result.deliveries.map(settledLine).join("\n") }],
      structuredContent: result,
      ...(result.deliveries.some((delivery) => delivery.status === "failed") && { isError: true }),
    };
  },
};

/** `verify --replay` against the server the tools drive: a recording of the real service compared with it. */
function verifyReplayTool(version: string): Tool {
  return {
    name: "verify_replay",
    title: "Compare the stand-in with a recording (loyalty-mock verify --replay)",
    description:
      "Replays a recording made by loyalty-mock verify --record (the real service's answers, normalized) against " +
      "the server these tools drive, step by step, and answers the table and the report. Needs the demo project's key pair there.",
    inputSchema: {
      type: "object",
      properties: { recording: { type: "string", description: "The recording file's path" } },
      required: ["recording"],
      additionalProperties: false,
    },
    call: async (args, { target }) => {
      const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-mcp-"));
      const out: string[] = [];
      try {
        const json = join(dir, "report.json");
        const status = await runVerify(
          {
            command: "verify",
            replay: String(args.recording),
            json,
            mock: target.url,
            allowWrites: false,
            maxAnswerBytes: target.maxAnswerBytes,
          },
          { env: process.env, stdout: (text) => out.push(text), stderr: (text) => out.push(text), version },
        );
        let report: unknown = null;
        try {
          report = JSON.parse(readFileSync(json, "utf8"));
        } catch {
          // No report: the run stopped before comparing (its reason is in the text).
        }
        const result: ToolResult = {
          content: [{ type: "text", text: `${out.join("")}exit status ${status}` }],
          structuredContent: { status, report },
        };
        return status === 0 ? result : { ...result, isError: true };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The tools beside the tables': the journal told, and play, trigger and verify --replay. */
export function taskTools(control: readonly Tool[], version: string): Tool[] {
  const requests = control.find((tool) => tool.name === "get_project_requests");
  if (requests === undefined)
    throw new Error("no control tool for the journal (GET /projects/{projectId}/requests)");
  return [journalTool(requests), playTool, triggerTool, verifyReplayTool(version)];
}

/** A tool's failure that is the server's or the call's, not a bug: said as the tool's answer. */
export function isCallFailure(error: unknown): error is Error {
  return error instanceof CallFailed;
}
