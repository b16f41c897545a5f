import { randomBytes } from "node:crypto";
import { CallFailed } from "../../clients/play/calls.js";
import { projectKeyOf } from "../../clients/play/project-key.js";
import { DEFAULT_MAX_ANSWER_BYTES } from "../../clients/read-answer.js";
import { SETTINGS } from "../../config/settings.js";
import { variableOf } from "../../config/settings-table.js";
import { WEBHOOK_EVENT } from "../../domain/webhooks/types.js";
import type { ServerTarget } from "../server-client.js";
import { CAUSES, CannotCause } from "./causes.js";
import { type TriggerCommand, triggerTypes, unknownType } from "./command.js";
import { type Settled, settledDeliveries, settledLine } from "./outbox-wait.js";

export interface TriggerOptions {
  target: ServerTarget;
  projectId: string;
  type: string;
  /** A customer's source id; a new one is made up when absent. */
  customer?: string | undefined;
  /** How long to wait for the outbox (outbox-wait.ts's default unless given). */
  settleTimeoutMs?: number;
}

/** What a trigger did: the deliveries it saw settle, or why it could not (`usage`: a type it cannot cause). */
export type TriggerResult =
  | { ok: true; requestId: string; customer: string; deliveries: Settled[] }
  | { ok: false; usage: boolean; message: string };

/**
 * Causes one notification of `type` (causes.ts) and waits for the outbox to show every delivery of it settled.
 * The command line and the MCP server's `trigger` tool both call this.
 */
export async function triggerNotification(options: TriggerOptions): Promise<TriggerResult> {
  const found = triggerTypes().find(({ type }) => type === options.type);
  if (found === undefined) return { ok: false, usage: true, message: unknownType(options.type) };
  const { target, projectId } = options;
  const customer = options.customer ?? `trigger-${randomBytes(6).toString("hex")}@example.com`;
  try {
    const keys = await projectKeyOf(target, projectId, target.adminToken);
    const context = { target, projectId, keys, customer };
    const cause = await CAUSES[found.name].play(context);
    if (cause.requestId === undefined)
      return { ok: false, usage: false, message: `${cause.what} answered without an X-Request-Id header` };
    const settled = await settledDeliveries(
      target,
      projectId,
      found.type,
      cause.requestId,
      options.settleTimeoutMs,
    );
    if (typeof settled === "string") return { ok: false, usage: false, message: settled };
    return { ok: true, requestId: cause.requestId, customer, deliveries: settled };
  } catch (error) {
    if (error instanceof CannotCause)
      return {
        ok: false,
        usage: true,
        message: `cannot cause ${found.type} in project ${projectId}: ${error.message}. It causes ${Object.values(WEBHOOK_EVENT).join(", ")} where the project's data allows`,
      };
    if (error instanceof CallFailed) return { ok: false, usage: false, message: error.message };
    throw error;
  }
}

interface Io {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** `--list`: each type and how it is caused, one per line. */
export function listLines(): string[] {
  const types = triggerTypes();
  const width = types.reduce((most, { type }) => Math.max(most, type.length), 0);
  return types.map(({ type, how }) => `${type.padEnd(width)}  ${how}`);
}

/** Resolves to the exit status: 0 settled (delivered or recorded), 1 failed, 2 a type it cannot cause. */
export async function runTrigger(command: TriggerCommand, io: Io): Promise<number> {
  if (command.list || command.type === undefined) {
    io.stdout(`${listLines().join("\n")}\n`);
    return 0;
  }
  const result = await triggerNotification({
    target: {
      url: command.url,
      adminToken: command.adminToken ?? io.env[variableOf(SETTINGS.adminToken)],
      maxAnswerBytes: command.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
      reader: "trigger",
    },
    projectId: command.project,
    type: command.type,
    customer: command.customer,
  });
  if (!result.ok) {
    io.stderr(`loyalty-mock trigger: ${result.message}\n`);
    return result.usage ? 2 : 1;
  }
  for (const delivery of result.deliveries) io.stdout(`${settledLine(delivery)}\n`);
  return result.deliveries.some((delivery) => delivery.status === "failed") ? 1 : 0;
}
