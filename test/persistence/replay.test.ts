import { createHash } from "node:crypto";
import { appendFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/index.js";
import { logFilesOf, replayState } from "../../src/persistence/replay.js";
import { StateFileError } from "../../src/persistence/state-file.js";
import { useStateFileServers } from "../helpers/state-file.js";

/**
 * The replay of a state file written by hand, line by line: which log files belong to it and in what order, which
 * of them a snapshot's generation leaves out, what the replay reports of them, the checksum of a snapshot longer
 * than one read, the errors of lines that name what is not there, and the records a log brings being checked
 * even when the snapshot's checksum vouches for the rest. Written for what a mutation run of src/persistence/replay.ts
 * (docs/internals/testing.md, "Mutation testing") found no test to fail on.
 */

const disk = useStateFileServers("replay");

const HEAD = {
  o: "snapshot",
  format: "loyalty-mock-state",
  version: 2,
  saved_at: "2026-11-20T10:00:00.000Z",
};
const text = (lines: object[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join("");

/** A snapshot of generation `gen` holding `lines`, its end line with the checksum of what comes before it. */
function snapshot(gen: number, lines: object[], checksum = true): string {
  const body = text([{ ...HEAD, gen }, ...lines]);
  const sha256 = createHash("sha256").update(body).digest("hex");
  return `${body}${JSON.stringify(checksum ? { o: "end", sha256 } : { o: "end" })}\n`;
}

/** One committed batch of a log. */
const batch = (...lines: object[]) => `${text(lines)}{"o":"commit"}\n`;

const customer = (id: string, extra: object = {}) => ({
  id,
  source_id: id,
  created_at: "2026-01-01T00:00:00.000Z",
  ...extra,
});
const put = (p: string, record: { id: string }) => ({ o: "put", p, c: "customers", k: record.id, r: record });
const project = (p: string) => ({ o: "fixtures", p, h: { id: p } });

function customersOf(
  replayed: ReturnType<typeof replayState>,
  index = 0,
): { id: string; metadata?: object }[] {
  const project = replayed.projects[index];
  if (!project) throw new Error(`no project ${index} replayed`);
  return (project.state as unknown as { customers: { id: string; metadata?: object }[] }).customers;
}

describe("the log files of a state disk.file", () => {
  it("are the files named <name>.log.<digits>, in the order of their generation", () => {
    for (const name of [
      "state.json",
      "state.json.log.1",
      "state.json.log.2",
      "state.json.log.3",
      "state.json.log.9",
      "state.json.log.10",
      "state.json.log.11",
      "state.json.log.100",
      "state.json.log.2.tmp",
      "state.json.log.a5",
      "state.json.log.x",
      "state.json.log.",
      "other.json.log.4",
    ])
      writeFileSync(join(disk.dir, name), "");
    expect(logFilesOf(disk.file)).toEqual(
      [1, 2, 3, 9, 10, 11, 100].map((gen) => ({ gen, path: join(disk.dir, `state.json.log.${gen}`) })),
    );
  });

  it("are none when the folder cannot be read", () => {
    expect(logFilesOf(join(disk.dir, "missing", "state.json"))).toEqual([]);
  });
});

describe("replaying a snapshot and its logs", () => {
  it("replays the logs from the snapshot's generation on, in order, and reports the newest and their bytes", () => {
    writeFileSync(disk.file, snapshot(3, [project("p"), put("p", customer("cust_a"))]));
    // A log older than the snapshot is covered by it (a compaction left it behind): replaying it would drop p.
    writeFileSync(`${disk.file}.log.2`, batch({ o: "drop", p: "p" }));
    writeFileSync(`${disk.file}.log.3`, batch(put("p", customer("cust_b"))));
    writeFileSync(
      `${disk.file}.log.5`,
      batch(put("p", customer("cust_b", { name: "B" })), put("p", customer("cust_c"))),
    );
    const replayed = replayState(disk.file);
    expect(customersOf(replayed)).toEqual([
      customer("cust_a"),
      customer("cust_b", { name: "B" }),
      customer("cust_c"),
    ]);
    expect(replayed.gen).toBe(5);
    expect(replayed.logBytes).toBe(statSync(`${disk.file}.log.3`).size + statSync(`${disk.file}.log.5`).size);
    expect(replayed.checksummed).toBe(true);
  });

  it("reports the snapshot's generation when no log is newer, and no checksum when the end line has none", () => {
    writeFileSync(disk.file, snapshot(4, [project("p")], false));
    writeFileSync(`${disk.file}.log.1`, batch({ o: "drop", p: "p" }));
    const replayed = replayState(disk.file);
    expect(replayed.projects).toHaveLength(1);
    expect(replayed).toMatchObject({ gen: 4, logBytes: 0, checksummed: false });
  });

  it("shares a record's values with the one before it in the same project's collection only", () => {
    const meta = { metadata: { tier: "gold" } };
    writeFileSync(
      disk.file,
      snapshot(1, [
        project("p"),
        project("q"),
        put("p", customer("cust_a", meta)),
        put("q", customer("cust_q", meta)),
        put("p", customer("cust_b", meta)),
      ]),
    );
    const replayed = replayState(disk.file);
    const [a, b] = customersOf(replayed, 0);
    const [q] = customersOf(replayed, 1);
    expect(b?.metadata).toEqual({ tier: "gold" });
    expect(b?.metadata).toBe(a?.metadata);
    expect(q?.metadata).not.toBe(a?.metadata);
  });
});

describe("a snapshot's checksum over more than one read", () => {
  const READ = 4 * 1024 * 1024;

  /** Header lines padded so the snapshot's lines before its end line are `size` bytes long. */
  function padded(size: number): object[] {
    const lines: object[] = [project("p")];
    let length = text([{ ...HEAD, gen: 1 }, ...lines]).length;
    const line = (pad: number) => ({ o: "head", p: "p", h: { id: "p", pad: "x".repeat(pad) } });
    const overhead = text([line(0)]).length;
    while (size - length > 2 * 65536) {
      lines.push(line(65536 - overhead));
      length += 65536;
    }
    const rest = size - length;
    lines.push(line(Math.floor(rest / 2) - overhead), line(rest - Math.floor(rest / 2) - overhead));
    return lines;
  }

  it("matches when the end line starts the second read", () => {
    const lines = padded(READ - 10);
    writeFileSync(disk.file, snapshot(1, lines));
    expect(snapshot(1, lines).indexOf('{"o":"end"')).toBe(READ - 10);
    expect(replayState(disk.file)).toMatchObject({ checksummed: true, gen: 1 });
  });

  it("matches when the end line is inside the second read", () => {
    writeFileSync(disk.file, snapshot(1, padded(READ + 1000)));
    expect(replayState(disk.file)).toMatchObject({ checksummed: true, gen: 1 });
  });

  it("does not match when a byte of the first read changed", () => {
    const good = snapshot(1, padded(READ + 1000));
    const changed = good.replace('"pad":"x', '"pad":"y');
    writeFileSync(disk.file, changed);
    const end = changed.slice(0, -1).split("\n").length;
    expect(() => replayState(disk.file)).toThrow(
      new StateFileError(
        disk.file,
        `line ${end}: the snapshot does not match its checksum (damaged or edited)`,
      ),
    );
  });
});

describe("lines that name what is not there", () => {
  const refused = (lines: object[], problem: string) => {
    writeFileSync(disk.file, snapshot(1, lines, false));
    expect(() => replayState(disk.file)).toThrow(new StateFileError(disk.file, problem));
  };

  it("a fixture record past the fixtures' end, or of a collection there is none of", () => {
    refused(
      [project("p"), { o: "same", p: "p", c: "customers", k: "cust_a", i: 0 }],
      "line 3: names fixture record 0 of customers, which is not there",
    );
    refused(
      [project("p"), { o: "same", p: "p", c: "coupons", k: "c", i: 0 }],
      "line 3: names fixture record 0 of coupons, which is not there",
    );
  });

  it("a snapshot's record of a named snapshot no line began", () => {
    refused(
      [project("p"), { o: "sput", p: "p", n: "before", c: "customers", r: customer("cust_a") }],
      "line 3: names snapshot before's customers, which no earlier line starts",
    );
  });

  it("a project no line added, and a line the snapshot does not know", () => {
    refused([put("p", customer("cust_a"))], "line 2: names project p, which no earlier line adds");
    refused([project("p"), { o: "rename", p: "p" }], "line 3: not a line of a state snapshot");
  });

  it("a first line that is not a snapshot head of this format", () => {
    writeFileSync(disk.file, snapshot(1, [project("p")]).replace('"loyalty-mock-state"', '"other-state"'));
    expect(() => replayState(disk.file)).toThrow(
      new StateFileError(disk.file, "line 1: not the head of a state snapshot"),
    );
  });

  it("in a log, a whole document that is null names its batch", () => {
    writeFileSync(disk.file, snapshot(1, [project("p")]));
    writeFileSync(`${disk.file}.log.1`, batch({ o: "state", p: "p", d: null }));
    expect(() => replayState(disk.file)).toThrow(StateFileError);
    expect(() => replayState(disk.file)).toThrow(`${disk.file}.log.1: batch ending on line 2: `);
  });

  it("in a log, a line the replay does not know names its batch", () => {
    writeFileSync(disk.file, snapshot(1, [project("p")]));
    writeFileSync(`${disk.file}.log.1`, batch(put("p", customer("cust_a")), { o: "rename", p: "p" }));
    expect(() => replayState(disk.file)).toThrow(
      new StateFileError(`${disk.file}.log.1`, 'batch ending on line 3: unknown line "rename"'),
    );
  });
});

describe("a restart checks each record a log brings, even after a checksummed snapshot", () => {
  const start = async () => {
    const server = await disk.start({ stateSync: "always" });
    return server;
  };
  const logBatch = (...lines: object[]) =>
    appendFileSync(logFilesOf(disk.file).at(-1)?.path as string, batch(...lines));
  const refusedWith = (where: string) =>
    new StateFileError(disk.file, `project demo, ${where}: should be string`);

  it("a whole document's records (a PUT of the state)", async () => {
    const first = await start();
    const exported = await (await fetch(`${first.url}/__mock/projects/demo/state`)).json();
    await first.close();
    exported.customers[1] = { ...exported.customers[1], source_id: 42 };
    logBatch({ o: "state", p: "demo", d: exported });
    await expect(start()).rejects.toThrow(refusedWith("state: $.customers[1].source_id"));
  });

  it("a record written", async () => {
    await (await start()).close();
    logBatch(put("demo", customer("cust_bad", { email: false })));
    await expect(start()).rejects.toThrow(refusedWith("state: $.customers[5].email"));
  });

  it("a whole document's record that is not an object, which no other record names", async () => {
    const first = await start();
    const exported = await (await fetch(`${first.url}/__mock/projects/demo/state`)).json();
    await first.close();
    const at = exported.customers.push(5) - 1;
    logBatch({ o: "state", p: "demo", d: exported });
    await expect(start()).rejects.toThrow(
      new StateFileError(disk.file, `project demo, state: $.customers[${at}]: should be object`),
    );
  });

  it("a project's fixtures (a project created), when its state no longer holds them", async () => {
    await (await start()).close();
    const bad = { project: { id: "demo" }, customers: [customer("cust_bad", { name: 7 })] };
    logBatch({ o: "fixtures", p: "demo", d: bad }, { o: "clear", p: "demo", h: { id: "demo" } });
    await expect(start()).rejects.toThrow(refusedWith("fixtures: $.customers[0].name"));
  });
});

describe("a token revoked in place, across a restart", () => {
  it("keeps its place among the project's tokens", async () => {
    const server = await disk.start({ stateSync: "always" });
    const post = (path: string, headers: Record<string, string> = {}, body?: string) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: {
          ...headers,
          ...(body !== undefined && { "Content-Type": "application/x-www-form-urlencoded" }),
        },
        ...(body !== undefined && { body }),
      });
    const other = await (
      await fetch(`${server.url}/__mock/projects/demo/keys`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "second", permissions: ["api"] }),
      })
    ).json();
    const form = "grant_type=client_credentials&scope=api";
    for (const [appId, appToken] of [
      ["demo-app-id", "demo-app-token"],
      [other.app_id, other.app_token],
    ])
      expect(
        (await post("/v1/oauth/token", { "X-App-Id": appId, "X-App-Token": appToken }, form)).status,
      ).toBe(200);
    expect((await post("/__mock/projects/demo/keys/demo-app-id/block")).status).toBe(200);
    const tokens = async (server: RunningServer) =>
      (await (await fetch(`${server.url}/__mock/projects/demo/state`)).json()).tokens;
    const before = await tokens(server);
    expect(before.map((token: { app_id: string }) => token.app_id)).toEqual(["demo-app-id", other.app_id]);
    await server.close();
    const again = await disk.start({ stateSync: "always" });
    expect(await tokens(again)).toEqual(before);
  });
});

describe("the reference check of a restart, over a checksummed snapshot's records (trusted as written)", () => {
  it("finds a source id a log gives a second customer, past customers the snapshot wrote without one", async () => {
    // The reference check counts the values against the store's index of source ids (which leaves out records
    // without one) and scans only when they differ; records without a value count for nothing either way.
    const bare = (id: string) => ({ id, created_at: "2026-01-01T00:00:00.000Z" });
    writeFileSync(
      disk.file,
      snapshot(1, [
        project("p"),
        put("p", customer("cust_a", { source_id: "shared" })),
        put("p", bare("cust_c")),
        put("p", bare("cust_d")),
        put("p", customer("cust_x")),
      ]),
    );
    writeFileSync(`${disk.file}.log.1`, batch(put("p", customer("cust_b", { source_id: "shared" }))));
    await expect(disk.start()).rejects.toThrow(
      new StateFileError(disk.file, "project p, state: $.customers[4].source_id: duplicate source_id shared"),
    );
  });

  it("takes a tier's segment left null (the contract allows it on a POINTS tier) as naming no segment", async () => {
    const structure = {
      id: "lts_p0000000000000001",
      name: "Tiers",
      created_at: "2026-01-01T00:00:00.000Z",
      tiers: [
        {
          id: "lt_p0000000000000001",
          name: "Member",
          qualification_rules: { type: "POINTS", min_value: 0, max_value: 999, segment: null },
          created_at: "2026-01-01T00:00:00.000Z",
        },
      ],
    };
    writeFileSync(
      disk.file,
      snapshot(1, [project("p"), { o: "put", p: "p", c: "tier_structures", k: structure.id, r: structure }]),
    );
    const server = await disk.start();
    expect(server.registry.get("p").tierStructures.size).toBe(1);
  });
});
