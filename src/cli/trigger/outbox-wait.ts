import { setTimeout as sleep } from "node:timers/promises";
import { said } from "../../clients/play/calls.js";
import { callServer, expectOk, listed, type ServerTarget } from "../server-client.js";

/** How long trigger waits for the outbox to show the notification settled: past the longest delivery (10 s). */
export const SETTLE_TIMEOUT_MS = 30_000;
const POLL_MS = 100;

/** One delivery of the notification, as the outbox shows it once it settled. */
export interface Settled {
  id: string;
  type: string;
  status: "delivered" | "not_sent" | "failed";
  url: string | null;
  responseStatus: number | null;
  error: string | null;
}

type Delivery = Record<string, unknown>;

const groupOf = (delivery: Delivery) =>
  ((delivery.envelope as { event?: { group_id?: unknown } } | undefined)?.event?.group_id ?? undefined) as
    | string
    | undefined;

/**
 * Waits until every delivery of `type` that the request `requestId` caused (the envelope's `event.group_id`) has
 * settled: delivered, failed, or recorded with no endpoint (`not_sent`). Resolves to them, or to a reason when
 * the outbox shows none within the time (an outbox of size 0, or an operation that did not notify it).
 */
export async function settledDeliveries(
  target: ServerTarget,
  projectId: string,
  type: string,
  requestId: string,
  timeoutMs = SETTLE_TIMEOUT_MS,
): Promise<Settled[] | string> {
  const until = Date.now() + timeoutMs;
  let seen: Delivery[] = [];
  for (;;) {
    const answer = await callServer(target, {
      method: "GET",
      path: `/__mock/projects/${encodeURIComponent(projectId)}/webhooks/deliveries`,
      query: { type, limit: 1000 },
    });
    seen = listed(expectOk(answer)).filter((delivery) => groupOf(delivery) === requestId);
    if (seen.length > 0 && seen.every((delivery) => delivery.status !== "pending"))
      return seen.map(settledOf);
    if (Date.now() >= until) break;
    await sleep(POLL_MS);
  }
  return seen.length === 0
    ? `the outbox showed no ${type} for request ${requestId} within ${timeoutMs / 1000} s (an outbox of size 0, LOYALTY_MOCK_WEBHOOK_OUTBOX_SIZE, keeps none)`
    : `${type} was still pending after ${timeoutMs / 1000} s`;
}

function settledOf(delivery: Delivery): Settled {
  const textOrNull = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    id: String(delivery.id),
    type: String(delivery.type),
    status: delivery.status as Settled["status"],
    url: textOrNull(delivery.url),
    responseStatus: typeof delivery.response_status === "number" ? delivery.response_status : null,
    error: textOrNull(delivery.error),
  };
}

/** A settled delivery in a line: its id, its type and where it went. */
export function settledLine(delivery: Settled): string {
  const head = `${said(delivery.id)} ${said(delivery.type)}`;
  if (delivery.status === "not_sent")
    return `${head} recorded in the outbox, not sent: no active endpoint wants it`;
  const where = said(delivery.url ?? "its endpoint");
  if (delivery.status === "delivered")
    return `${head} delivered to ${where} (answered ${delivery.responseStatus})`;
  return `${head} failed at ${where}: ${said(delivery.error ?? "no reason given")}`;
}
