import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPaths, parseCheck, problemLine, runCheck } from "../../src/cli/check/command.js";
import { DEFAULT_FIXTURES_DIR } from "../../src/index.js";
import { ROOT } from "../helpers/process.js";

/**
 * `loyalty-mock check`: everything the package ships passes, and a folder of broken fixtures, scenarios and
 * settings files is refused with each problem named by file and place, by the same code a start and a play run.
 */

const SCENARIOS = join(ROOT, "scenarios");
const write = (file: string, value: unknown) =>
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));

const lines = (paths: string[], extra: Partial<{ fixtures: string; project: string }> = {}) =>
  checkPaths({ paths, project: "demo", ...extra }).flatMap((report) => report.problems.map(problemLine));

describe("loyalty-mock check", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "loyalty-mock-check-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("passes every fixture, scenario and settings file the package ships", () => {
    const scenarios = readdirSync(SCENARIOS).map((file) => join(SCENARIOS, file));
    const reports = checkPaths({
      paths: [DEFAULT_FIXTURES_DIR, ...scenarios, join(ROOT, ".env.example")],
      project: "demo",
    });
    expect(reports.flatMap((report) => report.problems)).toEqual([]);
    expect(reports.map((report) => report.kind)).toEqual([
      "fixtures",
      ...scenarios.map(() => "scenario"),
      "settings",
    ]);
    expect(reports[0]?.checked).toBe("2 projects");
  });

  it("names each broken project of a fixtures folder by file and JSON path, and the projects that clash", () => {
    const fixtures = join(dir, "fixtures");
    for (const name of ["bad-json", "bad-field", "no-keys", "clash"])
      cpSync(join(DEFAULT_FIXTURES_DIR, "other"), join(fixtures, name), { recursive: true });
    write(join(fixtures, "bad-json", "project.json"), '{"id": "bad-json",');
    write(join(fixtures, "bad-field", "project.json"), { id: "bad-field", name: 7, settings: {} });
    write(join(fixtures, "no-keys", "project.json"), { id: "no-keys", name: "No keys", settings: {} });
    rmSync(join(fixtures, "no-keys", "api-keys.json"));
    write(join(fixtures, "clash", "project.json"), { id: "clash", name: "Clash", settings: {} });
    // The other three are broken, so "clash" is installed first: the one that keeps other's app id is the copy below.
    cpSync(join(fixtures, "clash"), join(fixtures, "clash2"), { recursive: true });
    write(join(fixtures, "clash2", "project.json"), { id: "clash2", name: "Clash 2", settings: {} });
    const found = lines([fixtures]);
    expect(found).toEqual([
      expect.stringMatching(/bad-field\/project\.json: \$\.name: should be string/),
      expect.stringMatching(/bad-json\/project\.json: line 1 column \d+: not valid JSON/),
      expect.stringMatching(/no-keys\/api-keys\.json: \$: missing file/),
      expect.stringMatching(/fixtures: project clash2: .*other-app-id/),
    ]);
  });

  it("names a scenario's bad step and every id the fixtures lack, where it names no other folder", () => {
    const scenario = join(dir, "story.json");
    write(scenario, {
      title: "Broken",
      steps: [
        { type: "join", campaign: "camp_nope", customer: { source_id: "a@example.com" } },
        { type: "join", campaign: "camp_demo_discounts", customer: { source_id: "a@example.com" } },
        { type: "event", event: "no_such_event", customer: "a@example.com" },
        { type: "event", event: "user_subscribed", customer: "a@example.com" },
        { type: "tier", structure: "lts_nope", name: "X", min_points: 10, max_points: 5 },
        { type: "delete_incentive", incentive: "linc_d0000000000000101" },
        { type: "delete_incentive", incentive: "linc_d0000000000000101" },
      ],
    });
    expect(lines([scenario])).toEqual([
      `${scenario}: $.steps[0].campaign: no campaign camp_nope in project demo of ${DEFAULT_FIXTURES_DIR}`,
      `${scenario}: $.steps[1].campaign: camp_demo_discounts is a DISCOUNT_COUPONS, not a loyalty program`,
      `${scenario}: $.steps[2].event: no event schema no_such_event in project demo of ${DEFAULT_FIXTURES_DIR}`,
      `${scenario}: $.steps[3].metadata: user_subscribed: Property .metadata.plan is required`,
      `${scenario}: $.steps[4].structure: no tier structure lts_nope in project demo of ${DEFAULT_FIXTURES_DIR}`,
      `${scenario}: $.steps[4].max_points: should be min_points or more`,
      `${scenario}: $.steps[6].incentive: linc_d0000000000000101 is deleted by an earlier step`,
    ]);
    // The same ids against another folder's project.
    expect(lines([scenario], { fixtures: DEFAULT_FIXTURES_DIR, project: "other" })[0]).toMatch(
      /\$\.steps\[0\]\.campaign: no campaign camp_nope in project other/,
    );
    write(scenario, { title: "Bad", steps: [{ type: "jump" }] });
    expect(lines([scenario])).toEqual([expect.stringMatching(/story\.json: \$\.steps\[0\]\.type: /)]);
  });

  it("checks every line of a settings file against the settings table", () => {
    const file = join(dir, "ci.env");
    write(
      file,
      [
        "# a comment",
        "LOYALTY_MOCK_PORT=70000",
        "LOYALTY_MOCK_LOG_LEVEL=loud",
        "LOYALTY_MOCK_SEED=tests",
        "PORT=8080",
        "LOYALTY_MOCK_PROT=1",
        "not a line",
        "",
      ].join("\n"),
    );
    expect(lines([file])).toEqual([
      `${file}: line 7: does not parse: "not a line"; expected NAME=value, a # comment or a blank line`,
      `${file}: line 5: PORT is not a setting; a start reads LOYALTY_MOCK_ names only (did you mean LOYALTY_MOCK_PORT?)`,
      `${file}: LOYALTY_MOCK_PROT (line 6) is not a setting; a start ignores it`,
      `${file}: Invalid value for LOYALTY_MOCK_PORT (line 2): "70000"; expected a whole number from 0 to 65535`,
      `${file}: Invalid value for LOYALTY_MOCK_LOG_LEVEL (line 3): "loud"; expected one of fatal, error, warn, info, debug, trace, silent`,
    ]);
  });

  it("exits 0 when all pass, 1 with one line per problem, and prints JSON with --json", () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) };
    expect(
      runCheck(
        { command: "check", paths: [join(SCENARIOS, "first-month.json")], json: false, project: "demo" },
        io,
      ),
    ).toBe(0);
    expect(out.join("")).toMatch(/^ok .*first-month\.json \(scenario, \d+ steps\)\n$/);
    out.length = 0;
    const missing = join(dir, "missing.json");
    expect(runCheck({ command: "check", paths: [missing], json: false, project: "demo" }, io)).toBe(1);
    expect(out.join("")).toBe(`${missing}: no such file or folder\n`);
    expect(err.join("")).toBe("loyalty-mock check: 1 problem in 1 of 1 paths\n");
    out.length = 0;
    expect(runCheck({ command: "check", paths: [missing], json: true, project: "demo" }, io)).toBe(1);
    expect(JSON.parse(out.join(""))).toMatchObject({
      ok: false,
      paths: [{ path: missing, problems: [{ problem: "no such file or folder" }] }],
    });
  });

  it("takes paths and its flags, and refuses none", () => {
    expect(parseCheck(["a", "b", "--json", "--fixtures", "f", "--project", "p"])).toEqual({
      command: "check",
      paths: ["a", "b"],
      json: true,
      fixtures: "f",
      project: "p",
    });
    expect(() => parseCheck([])).toThrow(/give one or more paths/);
    mkdirSync(join(dir, "empty"), { recursive: true });
  });
});
