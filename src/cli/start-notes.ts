import { SETTINGS } from "../config/settings.js";
import { variableOf } from "../config/settings-table.js";
import type { Project } from "../domain/projects/project.js";
import { isLoopback } from "./exposure.js";

/**
 * The lines said at start after the address, about what makes this server's answers other than a fresh one's: a
 * seed (and, off loopback, who else can work out what it makes), and clocks that are not the machine's.
 */

/**
 * With a seed, every id, code, token and secret follows from it. On loopback that is the point (snapshot tests);
 * on an address others reach, whoever knows the seed, often committed beside the tests, can compute the keys and
 * tokens the server makes and call it as any of its clients.
 */
export function seedNote(seed: string | undefined, host: string): string | undefined {
  if (seed === undefined) return undefined;
  if (isLoopback(host)) return "seeded: ids, codes, tokens and secrets are predictable; for tests only";
  return (
    `warning: seeded, and reachable on ${host}: ids, codes, tokens and secrets are predictable, so anyone who ` +
    "knows the seed can compute this server's app tokens, access tokens and webhook secrets; keep a seeded server " +
    `on loopback, or unset ${variableOf(SETTINGS.seed)}`
  );
}

const SHOWN = 5;

function clockOf(project: Project): string | undefined {
  const { frozenAt, offsetMs } = project.clock;
  if (frozenAt !== undefined) return `${project.id} frozen at ${new Date(frozenAt).toISOString()}`;
  if (offsetMs === 0) return undefined;
  const seconds = Math.abs(offsetMs) / 1000;
  return `${project.id} running ${seconds} s ${offsetMs > 0 ? "ahead of" : "behind"} the server's clock`;
}

/**
 * Which clocks are not the machine's. From a state file, each project's clock is as the file saved it (frozen or
 * moved, or not), whatever LOYALTY_MOCK_FREEZE_CLOCK says: that setting then freezes only the projects created or
 * reset from now on, and the line says both.
 */
export function clockNote(
  projects: readonly Project[],
  freezeClock: string | undefined,
  restored: boolean,
): string | undefined {
  // The instant the clocks hold, in UTC as every answer writes it: `2026-01-01T09:00:00+02:00` as typed would
  // leave the reader to work out the time the answers show.
  const held = freezeClock === undefined ? undefined : new Date(freezeClock).toISOString();
  if (!restored) return held === undefined ? undefined : `every project clock frozen at ${held}`;
  const clocks = projects.flatMap((project) => clockOf(project) ?? []);
  if (freezeClock === undefined && clocks.length === 0) return undefined;
  const more = clocks.length > SHOWN ? `, and ${clocks.length - SHOWN} more` : "";
  const saved =
    clocks.length === 0
      ? "the state file's clocks run with the server's"
      : `clocks as the state file saved them: ${clocks.slice(0, SHOWN).join(", ")}${more}`;
  if (held === undefined) return saved;
  return `${saved}; ${variableOf(SETTINGS.freezeClock)} (${held}) freezes only projects created or reset from now on`;
}
