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
