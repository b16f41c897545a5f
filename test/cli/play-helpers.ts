import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type PlayCommand, runPlay } from "../../src/cli/play.js";

/** `loyalty-mock play` in tests: a scenario written to a file of its own, and the command run in this process. */

export function scenarioFile(scenario: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-play-"));
  const file = join(dir, "scenario.json");
  writeFileSync(file, JSON.stringify(scenario));
  return file;
}

export interface Played {
  status: number;
  out: string;
  err: string;
}

/** Runs the command at speed 1000 in the demo project unless told otherwise. */
export async function play(
  command: Partial<PlayCommand> & { scenario: string; url: string },
  env = {},
): Promise<Played> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runPlay(
    { command: "play", project: "demo", speed: 1000, ...command },
    { env, stdout: (text) => out.push(text), stderr: (text) => err.push(text) },
  );
  return { status, out: out.join(""), err: err.join("") };
}
