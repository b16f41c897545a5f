import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { invalidPayload } from "../../src/domain/errors.js";
import type { Notification } from "../../src/domain/webhooks/notification.js";
import { baseApp, finishApp } from "../../src/http/app.js";
import { mountOperations } from "../../src/http/operations/mount.js";
import type { Call } from "../../src/http/operations/row.js";
import type { Operation } from "../../src/http/operations/table.js";
import type { ProjectRegistry } from "../../src/index.js";
import { DEFAULT_INPUT_LIMITS } from "../../src/index.js";
import { ownLoopback, portBelowEphemeral } from "./ports.js";

/** One POST as a webhook receiver got it: the body's exact text, so a test can check the signature over it. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  body: Record<string, unknown>;
}

/** What the receiver answers with: a status, or "hang" (never answers until released or cut off). */
export type Answer = number | "hang";

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Most requests it was serving at the same moment. */
  maxConcurrent: number;
  answer: (received: Received) => Answer;
  /** Answers every request held by "hang" with this status. */
  release(status?: number): void;
  close(): Promise<void>;
}

/** A real webhook receiver on 127.0.0.1 (port 0 unless given), recording every request it gets. */
export async function startReceiver(
  answer: Receiver["answer"] = () => 200,
  port = 0,
  host = "127.0.0.1",
): Promise<Receiver> {
  const held: (() => void)[] = [];
  let concurrent = 0;
  const receiver: Receiver = {
    url: "",
    port: 0,
    received: [],
    maxConcurrent: 0,
    answer,
    release(status = 200) {
      receiver.answer = () => status;
      for (const send of held.splice(0)) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    concurrent++;
    receiver.maxConcurrent = Math.max(receiver.maxConcurrent, concurrent);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const got: Received = { path: req.url ?? "", headers: req.headers, text, body: JSON.parse(text) };
      receiver.received.push(got);
      const respond = () => {
        concurrent--;
        res.statusCode = receiver.answer(got) as number;
        res.end("{}");
      };
      if (receiver.answer(got) === "hang") held.push(respond);
      else respond();
    });
    res.on("close", () => {
      if (!res.writableEnded) concurrent--;
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://${host}:${receiver.port}/hooks`;
  return receiver;
}

/**
 * An address and port nothing listens on, for a refused connection: a loopback address of its own and a port below
 * the range port 0 draws from (helpers/ports.ts), so no other test, here or in another suite on the machine, takes
 * it between the choice and its use. A test may later listen on it itself (`startReceiver(answer, port, host)`).
 */
export async function closedPort(): Promise<{ host: string; port: number }> {
  const host = await ownLoopback();
  return { host, port: await portBelowEphemeral(host) };
}

/**
 * An app with one extra operation, `POST /v1/test-notify`, mounted by the same code as the six (routes.ts): it
 * authenticates with the key pair, hands the notifications in its body to `call.notify` and answers 200 — or,
 * with `{"refuse": true}`, refuses with a 400 before notifying, as a use case refusing a request does.
 */
export function notifyingApp(registry: ProjectRegistry): Express {
  const row = {
    name: "testNotify",
    method: "POST",
    path: "/v1/test-notify",
    auth: { acceptsToken: true, acceptsServiceOAuth: false, v2: false, scopes: ["api", "events"] },
    body: "json",
    run: ({ input, notify }: Call<unknown>) => {
      const body = (input as { body: { notifications: Notification[]; refuse?: boolean } }).body;
      if (body.refuse) throw invalidPayload("refused before notifying");
      notify(body.notifications);
      return { object: "test", notified: body.notifications.length };
    },
  } as unknown as Operation;
  const app = baseApp({ trustProxy: false, inputLimits: DEFAULT_INPUT_LIMITS });
  mountOperations(app, { registry, bodyLimit: 1024 * 1024 }, [row]);
  return finishApp(app, 1024 * 1024);
}

/** A synthetic notification, as a use case would hand it over. */
export function notification(
  type: string,
  entityId: string,
  data: Record<string, unknown> = {},
): Notification {
  return { type, entityId, data: { ...data, object_id: entityId } };
}
