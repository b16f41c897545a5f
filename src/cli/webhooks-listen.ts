import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { verifySignature } from "../domain/webhooks/envelope.js";
import { UsageError } from "./usage-error.js";

/**
 * `loyalty-mock webhooks listen`: a tiny receiver for demos and local work. It prints every notification it gets,
 * marked "verified" or "BAD SIGNATURE" (checked with the library's own verifySignature, the vendor's method),
 * and answers 200, or 401 for a bad signature so the sender records the delivery as failed.
 */
export interface ListenCommand {
  command: "webhooks-listen";
  host: string;
  port: number;
  /** The endpoint's secret; without one, notifications are printed as "unverified". */
  secret?: string;
}

export function parseListen(args: readonly string[]): ListenCommand {
  if (args[0] !== "listen")
    throw new UsageError(`unknown webhooks command: ${args[0] ?? "(none)"}; try listen`);
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args.slice(1)],
      options: { port: { type: "string", short: "p" }, host: { type: "string" }, secret: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { port = "4000", host = "127.0.0.1", secret } = values as Record<string, string | undefined>;
  const number = Number(port);
  if (!/^\d+$/.test(port) || number > 65_535) throw new UsageError(`--port must be 0-65535, not ${port}`);
  return { command: "webhooks-listen", host, port: number, ...(secret !== undefined && { secret }) };
}

function describe(body: unknown): string {
  const envelope = body as { type?: unknown; id?: unknown; event?: { entity_id?: unknown } };
  return `${String(envelope.type)} ${String(envelope.id)} (entity ${String(envelope.event?.entity_id)})`;
}

/** Starts the receiver; each notification is handed to `print` as two lines: what it is, then its JSON. */
export async function startListener(
  command: Omit<ListenCommand, "command">,
  print: (line: string) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        print(`${new Date().toISOString()} not JSON: ${req.method} ${req.url}`);
        res.writeHead(400, { "content-type": "application/json" }).end('{"received":false}');
        return;
      }
      const signature = req.headers["x-voucherify-signature"];
      const verdict =
        command.secret === undefined
          ? "unverified"
          : typeof signature === "string" && verifySignature(signature, text, command.secret)
            ? "verified"
            : "BAD SIGNATURE";
      print(`${new Date().toISOString()} ${verdict} ${describe(body)}`);
      print(text);
      const status = verdict === "BAD SIGNATURE" ? 401 : 200;
      res.writeHead(status, { "content-type": "application/json" }).end(`{"received":${status === 200}}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(command.port, command.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = command.host.includes(":") ? `[${command.host}]` : command.host;
  return { server, url: `http://${host}:${port}/` };
}

/** The bin's `webhooks listen`: runs until SIGINT or SIGTERM. */
export async function runListen(command: ListenCommand): Promise<void> {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  const { server, url } = await startListener(command, print);
  process.stderr.write(
    `loyalty-mock webhooks listening on ${url} (any path)${command.secret === undefined ? "; no --secret: signatures not checked" : ""}\n`,
  );
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
