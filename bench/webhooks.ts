import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { abArgs, printResults, runVariants, type Variant, writeReport } from "./ab.js";
import { buildThisTree } from "./targets.js";

/**
 * `npm run bench:webhooks`: what a webhook receiver does to the operations that notify (addMember, trackEvent).
 * Our server runs with no endpoint (the baseline: notifications only recorded in the outbox), and with one endpoint
 * whose receiver answers 200, answers 500, never answers (hangs until the delivery timeout), or refuses connections,
 * in a paired A/B run (bench/ab.ts). Delivery happens off the request path, so requests per second and CPU per
 * request should not move beyond the work of sending (issue 16: "the operation's latency is unchanged").
 */
const { settings } = abArgs(
  { only: ["addMember,trackEvent", "the operations to run, by name, comma-separated"] },
  "npm run bench:webhooks: the notifying operations with no endpoint, and with a receiver answering 200, 500, hanging or refusing.",
);

/** A receiver on loopback that reads each request and then answers with `status`, or never ("hang"). */
async function receiver(status: number | "hang"): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (status !== "hang") {
        res.statusCode = status;
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server };
}

/** A loopback address nobody listens on: a port taken and given back. */
async function refusingUrl(): Promise<string> {
  const { url, server } = await receiver(200);
  await new Promise((resolve) => server.close(resolve));
  return url;
}

function endpoint(url: string) {
  return [{ id: "wh_0000000000000000b1", url, secret: "bench", created_at: "2026-01-01T00:00:00.000Z" }];
}

async function main(): Promise<void> {
  const started = performance.now();
  buildThisTree();
  const ok = await receiver(200);
  const failing = await receiver(500);
  const hanging = await receiver("hang");
  const script = "dist/main.js";
  const variants: Variant[] = [
    { name: "no endpoint", script },
    { name: "receiver 200", script, fixtures: { "webhooks.json": endpoint(ok.url) } },
    { name: "receiver 500", script, fixtures: { "webhooks.json": endpoint(failing.url) } },
    { name: "receiver hangs", script, fixtures: { "webhooks.json": endpoint(hanging.url) } },
    { name: "connection refused", script, fixtures: { "webhooks.json": endpoint(await refusingUrl()) } },
  ];
  try {
    const results = await runVariants(variants, settings);
    const { rounds, duration, connections } = settings;
    process.stdout.write(
      `\nWebhook receivers, ${rounds} rounds of ${duration} s, ${connections} connections (medians of the rounds)\n\n`,
    );
    printResults(results, "CPU vs no endpoint");
    writeReport("webhooks", { settings, results }, started);
  } finally {
    for (const { server } of [ok, failing, hanging]) server.closeAllConnections();
    for (const { server } of [ok, failing, hanging]) server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:webhooks failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
