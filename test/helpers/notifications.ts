import { expect } from "vitest";
import type { Project } from "../../src/domain/projects/project.js";
import type { Notification } from "../../src/domain/webhooks/notification.js";
import { type OperationName, operation } from "../../src/http/operations/table.js";
import { filledPath } from "../../src/http/route.js";
import { validateAny } from "./contract.js";
import { validateWebhookData } from "./webhook-contract.js";
import type { World } from "./world.js";

export interface RowRun {
  /** The operation's answer, as JSON would carry it. */
  response: Record<string, unknown>;
  /** Every notify call, in order (an operation calls it once, on success). */
  calls: Notification[][];
  /** The notifications of the one call, as JSON would carry them. */
  notifications: { type: string; entityId: string; data: Record<string, unknown> }[];
}

/**
 * Runs a row of the operation table as its route does once the request is authenticated: the row's own input
 * schema parses `{params, body}`, then `run` gets the project and a notify that records what it is given. The app
 * hands notify to the webhooks; this is the same seam, observed. The answer is checked against the contract of
 * its version.
 */
export function runRow(
  world: Pick<World, "registry">,
  project: Project,
  name: OperationName,
  params: Record<string, string>,
  body: unknown,
  appId?: string,
): RowRun {
  const row = operation(name);
  const input = row.input ? row.input.parse({ params, body }) : { params, body };
  const calls: Notification[][] = [];
  const key = appId === undefined ? undefined : project.apiKeys.get(appId);
  const answer = row.run({
    registry: world.registry as World["registry"],
    auth: key ? { project, key } : { project },
    input,
    notify: (notifications) => calls.push([...notifications]),
  });
  const response = JSON.parse(JSON.stringify(answer)) as Record<string, unknown>;
  // Against its own version's contract: a body in the generally available form is the GA file's.
  validateAny(row.method, filledPath(row.path, params), 200, response, body);
  return { response, calls, notifications: JSON.parse(JSON.stringify(calls.flat())) };
}

/** Runs a row that must refuse: the error it threw and the notify calls it made (none, on a refusal). */
export function refusedRow(
  world: Pick<World, "registry">,
  project: Project,
  name: OperationName,
  params: Record<string, string>,
  body: unknown,
): { error: unknown; calls: Notification[][] } {
  const row = operation(name);
  const calls: Notification[][] = [];
  try {
    const input = row.input ? row.input.parse({ params, body }) : { params, body };
    row.run({
      registry: world.registry as World["registry"],
      auth: { project },
      input,
      notify: (notifications) => calls.push([...notifications]),
    });
  } catch (error) {
    return { error, calls };
  }
  throw new Error(`${name} was expected to refuse ${JSON.stringify(body)}`);
}

/** The types in order, each notification's data valid against the vendor's schema for its type. */
export function expectNotifications(run: RowRun, types: readonly string[]): RowRun["notifications"] {
  expect(run.calls).toHaveLength(1);
  expect(run.notifications.map((n) => n.type)).toEqual(types);
  for (const n of run.notifications) validateWebhookData(n.type, n.data);
  return run.notifications;
}

/** The one notification of a type (fails when there is not exactly one). */
export function only(notifications: RowRun["notifications"], type: string): RowRun["notifications"][number] {
  const found = notifications.filter((n) => n.type === type);
  expect(found, type).toHaveLength(1);
  return found[0] as RowRun["notifications"][number];
}
