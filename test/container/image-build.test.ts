import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process.js";
import { DOCKER, IMAGE, inspect, LABEL } from "./docker.js";

/**
 * What building the image costs and says. Issue 47 found the Docker guide's "about 13 MiB on top of its Node base
 * image" 19.7 MiB by then (chart.js, the dashboard's charts, came with 0.10.0), and `docker build` warning of the
 * user's uid. The guide's figure is read from the guide, so the two cannot part again unseen.
 */
const MiB = 1024 * 1024;
const BASE = process.env.NODE_IMAGE ?? "node:24-bookworm-slim";
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

describe("the image's build", () => {
  it("adds to its base image the size docs/guide/docker.md states, within a tenth, and at most 80 MiB", () => {
    const added = Number(inspect(IMAGE, "{{.Size}}")) - Number(inspect(BASE, "{{.Size}}"));
    console.info(`the image adds ${(added / MiB).toFixed(1)} MiB to ${BASE}`);
    const row =
      /^\| Size \| about (\d+) MiB on top of its Node base image\b.*\(the container tier holds it (?:to that figure within a tenth, and )?under (\d+) MiB\) \|$/m.exec(
        read("docs/guide/docker.md"),
      );
    expect(row, "docker.md's Size row").not.toBeNull();
    const [stated, cap] = [Number(row?.[1]), Number(row?.[2])];
    expect(Math.abs(added / MiB - stated)).toBeLessThanOrEqual(stated / 10);
    expect(cap).toBe(80);
    expect(added).toBeLessThanOrEqual(cap * MiB);
  });

  it("makes its user without a word from groupadd or useradd (the Dockerfile's step, run in the base image)", () => {
    const dockerfile = read("Dockerfile");
    const step = /^RUN (groupadd (?:[^\n]*\\\n)*[^\n]*)$/m.exec(dockerfile)?.[1];
    expect(step, "the RUN step that makes the user").toBeDefined();
    const run = spawnSync(
      DOCKER,
      [
        "run",
        "--rm",
        "--label",
        LABEL,
        "--user",
        "root",
        BASE,
        "sh",
        "-c",
        (step as string).replace(/\\\n/g, " "),
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toBe("");
  });
});
