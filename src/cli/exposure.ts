import { type NetworkInterfaceInfo, networkInterfaces } from "node:os";
import ipaddr from "ipaddr.js";
import { SETTINGS } from "../config/settings.js";
import { variableOf } from "../config/settings-table.js";
import { isLoopbackHost } from "../domain/webhooks/target.js";

/** Whether only this machine can reach an address the server listens on: the webhook targets' own rule. */
export const isLoopback = isLoopbackHost;

/**
 * The one line said at start when the control API (and the dashboard) can be reached from other machines without
 * a token: whoever reaches the port can export every project's state, API key secrets included, reset projects,
 * move clocks, inject faults and register webhook targets. Nothing is said on loopback or with a token, the
 * convenient default of a laptop or a CI job.
 */
export function openControlWarning(host: string, adminToken: string | undefined): string | undefined {
  if (adminToken !== undefined || isLoopback(host)) return undefined;
  return (
    `warning: the control API (/__mock) and the dashboard answer anyone who reaches ${host}: they can read ` +
    `every project's keys, reset state and inject faults; set ${variableOf(SETTINGS.adminToken)} to require a token`
  );
}

/**
 * On every address (0.0.0.0, ::), the line after the address: where else the server answers, so a user on another
 * machine (a demo on a projector, a phone on the same network) knows what to open. The first line names the
 * loopback URL, which scripts read; this one names this machine's other addresses.
 */
export function everyAddressLine(
  host: string,
  port: number,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string | undefined {
  if (!ipaddr.isValid(host) || ipaddr.parse(host).range() !== "unspecified") return undefined;
  const ipv6 = ipaddr.parse(host).kind() === "ipv6";
  const urls = Object.values(interfaces)
    .flatMap((entries) => entries ?? [])
    .filter(
      (entry) => !entry.internal && (entry.family === "IPv4" || (ipv6 && !entry.address.startsWith("fe80:"))),
    )
    .map((entry) => `http://${entry.family === "IPv4" ? entry.address : `[${entry.address}]`}:${port}`);
  return urls.length === 0
    ? `listening on every address (${host}); this machine has no other address than loopback`
    : `listening on every address (${host}): also ${urls.join(", ")}`;
}
