import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifySignature } from "../domain/webhooks/envelope.js";
import { type Command, HELP, helpOf, parseCommand } from "./flags.js";
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

export const LISTEN: Command = {
  name: "webhooks listen",
  usage: ["webhooks listen [-p, --port <port>] [--host <address>] [--secret <secret>]"],
  about:
    "A receiver for the server's webhook notifications: prints each as it arrives on stdout, one line (verified,\n" +
    "or BAD SIGNATURE when its x-voucherify-signature is not that of --secret, answered 401) and then its body.",
  flags: [
    { name: "port", short: "p", value: "<port>", help: "port to listen on; 0 picks a free one (4000)" },
    { name: "host", value: "<address>", help: "address to listen on (127.0.0.1)" },
    {
      name: "secret",
      value: "<secret>",
      help: "the endpoint's secret, to check each signature with; without it, nothing is checked",
    },
    HELP,
  ],
  examples: [
    "loyalty-mock webhooks listen --port 4000 --secret s3cret",
    "curl -X POST localhost:3000/__mock/projects/demo/webhooks -H 'Content-Type: application/json' \\",
    '  -d \'{"url":"http://127.0.0.1:4000/hooks","secret":"s3cret"}\'',
  ],
};

export function parseListen(args: readonly string[]): ListenCommand | { command: "help"; text: string } {
  if (args[0] === "--help" || args[0] === "-h" || (args[0] === "listen" && args.includes("--help")))
    return { command: "help", text: helpOf(LISTEN) };
  if (args[0] !== "listen")
    throw new UsageError(`unknown webhooks command: ${args[0] ?? "(none)"}; try webhooks listen`, LISTEN);
  const parsed = parseCommand(LISTEN, args.slice(1), false);
  if (parsed === "help") return { command: "help", text: helpOf(LISTEN) };
  const { port = "4000", host = "127.0.0.1", secret } = parsed.values as Record<string, string | undefined>;
  const number = Number(port);
  const typed = parsed.typed.port ?? "--port";
  if (!/^\d+$/.test(port) || number > 65_535)
    throw new UsageError(
      `Invalid value for ${typed}: ${JSON.stringify(port)}; expected a whole number from 0 to 65535, as in ${typed} 4000`,
      LISTEN,
    );
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
