import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * Ports for tests that must name one before anything listens on it: a process told `--port N`, a refused
 * connection. Every server of the suite listens on port 0, and so do most servers of other suites on a shared
 * machine: the kernel hands those ports out of its ephemeral range, so a port let go by a port-0 server can be
 * taken by any of them before the child binds it (or before a test connects to it expecting a refusal). The ports
 * here come from below that range, which port 0 never gives, and are checked free just before they are handed on.
 * A test that does not care which port a child takes passes 0 and reads the address back (`listeningOn`).
 */

/** The lowest port the kernel hands out for port 0 (Linux's ip_local_port_range; 32768 where it cannot be read). */
function ephemeralLow(): number {
  try {
    return (
      Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32768
    );
  } catch {
    return 32768;
  }
}

/** Whether `host:port` can be listened on now; an address the machine does not have is an error, not "taken". */
function canListen(port: number, host: string): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      error.code === "EADDRINUSE" || error.code === "EACCES" ? resolve(false) : reject(error),
    );
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A port below the ephemeral range, free on `host` right now. */
export async function portBelowEphemeral(host = "127.0.0.1"): Promise<number> {
  const low = Math.min(ephemeralLow(), 32768);
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * (low - 20000));
    if (await canListen(port, host)) return port;
  }
}

/**
 * A loopback address of its own, 127.x.y.z: Linux answers the whole 127.0.0.0/8 on `lo`, so two tests (or two
 * suites on one machine) that each want a refused connection never pick the same address and port, and a server
 * another suite binds to 127.0.0.1 is not reached. Where only 127.0.0.1 is configured (macOS), 127.0.0.1.
 */
export async function ownLoopback(): Promise<string> {
  const host = `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
  try {
    await canListen(0, host);
    return host;
  } catch {
    return "127.0.0.1";
  }
}
