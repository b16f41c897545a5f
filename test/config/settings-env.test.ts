import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startFailure } from "../../src/cli/start-errors.js";
import { ConfigError, readConfig, SETTINGS } from "../../src/config/settings.js";
import { readSettingsFile } from "../../src/config/settings-file.js";
import {
  type Row,
  readRows,
  rowsOf,
  type SettingsTable,
  variableOf,
} from "../../src/config/settings-table.js";
import { StateFileError } from "../../src/persistence/state-file.js";
import { FixtureError } from "../../src/platform/fixtures.js";

/** Prefixed names (the unprefixed ones of 0.4 no longer read), --settings-file, and the one line that refuses each bad value. */

function problems(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    readConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("the settings' variables", () => {
  it("are prefixed; the names before 0.5.0 configure nothing since 0.7.0, and are not warned of", () => {
    const warnings: string[] = [];
    const config = readConfig(
      { LOYALTY_MOCK_PORT: "4000", PORT: "8080", LOG_LEVEL: "warn", MOCK_ADMIN_TOKEN: "t", HOST: "0.0.0.0" },
      {},
      (line) => warnings.push(line),
    );
    expect(config).toMatchObject({ PORT: 4000, LOG_LEVEL: "info", HOST: "127.0.0.1" });
    expect(config.ADMIN_TOKEN).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it("a prefixed variable that is no setting is warned of, not refused", () => {
    const warnings: string[] = [];
    expect(readConfig({ LOYALTY_MOCK_PROT: "4000" }, {}, (line) => warnings.push(line)).PORT).toBe(3000);
    expect(warnings).toEqual(["LOYALTY_MOCK_PROT is not a setting; ignored"]);
  });

  it("every row is read by its prefixed name alone", () => {
    const added: Row<unknown> = { env: "CORS_ORIGINS", help: "", schema: z.string() };
    expect(variableOf(added)).toBe("LOYALTY_MOCK_CORS_ORIGINS");
    for (const [option, row] of rowsOf(SETTINGS)) {
      const { config } = readRows({ [option]: row } as SettingsTable, {
        [row.env]: "x",
        MOCK_ADMIN_TOKEN: "x",
      });
      expect(config[row.env], row.env).toEqual(row.default);
    }
  });

  it("a flag beats both names", () => {
    expect(readConfig({ LOYALTY_MOCK_PORT: "4000", PORT: "5000" }, { PORT: "6000" }).PORT).toBe(6000);
  });

  it("refuse a bad value in one line: the variable, the value, what is accepted", () => {
    expect(problems({ LOYALTY_MOCK_TRUST_PROXY: "maybe" })).toEqual([
      'Invalid value for LOYALTY_MOCK_TRUST_PROXY: "maybe"; expected true, false, a hop count, or comma-separated addresses, CIDR ranges, loopback, linklocal, uniquelocal',
    ]);
    expect(problems({ LOYALTY_MOCK_HOST: "notahost" })).toEqual([
      'Invalid value for LOYALTY_MOCK_HOST: "notahost"; expected an IP address (127.0.0.1, ::1, 0.0.0.0) or localhost',
    ]);
    expect(problems({ LOYALTY_MOCK_PORT: "seventy", LOYALTY_MOCK_STATE_SYNC: "never" })).toEqual([
      'Invalid value for LOYALTY_MOCK_PORT: "seventy"; expected a whole number from 0 to 65535',
      'Invalid value for LOYALTY_MOCK_STATE_SYNC: "never"; expected one of interval, always',
    ]);
    expect(problems({ LOYALTY_MOCK_BODY_LIMIT_BYTES: "0" })).toEqual([
      'Invalid value for LOYALTY_MOCK_BODY_LIMIT_BYTES: "0"; expected a whole number, 1 or more',
    ]);
  });

  it("TRUST_PROXY takes what Express takes: names, addresses and ranges, lists of them", () => {
    for (const value of [
      "loopback",
      "10.0.0.0/8, 192.168.1.1",
      "fe80::/10",
      "10.0.0.0/255.0.0.0",
      "3",
      "true",
    ])
      expect(problems({ LOYALTY_MOCK_TRUST_PROXY: value }), value).toEqual([]);
    for (const value of ["10.0.0.0/33", "10.0.0.0/8/1", "loopback,", "yes"])
      expect(problems({ LOYALTY_MOCK_TRUST_PROXY: value }), value).toHaveLength(1);
  });
});

describe("--settings-file", () => {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-env-file-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (text: string) => {
    const path = join(dir, `${Math.random()}.env`);
    writeFileSync(path, text);
    return path;
  };

  it("reads NAME=value lines, quotes, export and comments", () => {
    const path = file(
      '# settings\n\nexport LOYALTY_MOCK_PORT=4000\nA = "two words" # note\nB=\'$literal\'\nC=bare # note\nD="x\\ny"\n',
    );
    expect(readSettingsFile(path)).toEqual({
      LOYALTY_MOCK_PORT: "4000",
      A: "two words",
      B: "$literal",
      C: "bare",
      D: "x\ny",
    });
  });

  it("refuses the whole file at a line that does not parse, naming it", () => {
    for (const [text, line] of [
      ["A=1\nnot a setting\nB=2\n", 2],
      ['A="unclosed\nB=2\n', 1],
      ["A=1\n1B=2\n", 2],
    ] as const) {
      const path = file(text);
      expect(() => readSettingsFile(path)).toThrow(
        new RegExp(
          `^Invalid value for --settings-file: ".*"; line ${line} does not parse: .*; expected NAME=value, a # comment or a blank line$`,
        ),
      );
    }
  });
});

describe("what stops the bin's start", () => {
  it("is one line and status 2 when the user's settings, fixtures or state file caused it", () => {
    const inUse = Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE" });
    expect(startFailure(inUse, { port: 3000 })).toEqual({
      lines: [
        'Invalid value for LOYALTY_MOCK_PORT: "3000"; cannot listen on it (EADDRINUSE); expected a free port this user may open, or 0 for any free port',
      ],
      status: 2,
    });
    const fixture = new FixtureError("fx/shop/api-keys.json", "$", "missing file");
    expect(startFailure(fixture, { fixturesDir: "fx" })).toEqual({
      lines: [
        'Invalid value for LOYALTY_MOCK_FIXTURES_DIR: "fx"; fx/shop/api-keys.json: $: missing file; see README "Fixtures"',
      ],
      status: 2,
    });
    expect(startFailure(new StateFileError("/no/s.json", "cannot be written (ENOENT)")).lines).toEqual([
      'Invalid value for LOYALTY_MOCK_STATE_FILE: "/no/s.json"; /no/s.json: cannot be written (ENOENT); expected a file in an existing folder this user may write',
    ]);
  });

  it("names what the user typed: the flag, else the variable (and the settings file it was in)", () => {
    const inUse = Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE" });
    const names = new Map<unknown, string>([
      [SETTINGS.port, "--port"],
      [SETTINGS.fixturesDir, "LOYALTY_MOCK_FIXTURES_DIR (in ci.env)"],
    ]);
    const nameOf = (row: object) => names.get(row) ?? "?";
    expect(startFailure(inUse, { port: 3000 }, nameOf).lines[0]).toMatch(
      /^Invalid value for --port: "3000"; /,
    );
    const fixture = new FixtureError("fx/shop/api-keys.json", "$", "missing file");
    expect(startFailure(fixture, { fixturesDir: "fx" }, nameOf).lines[0]).toMatch(
      /^Invalid value for LOYALTY_MOCK_FIXTURES_DIR \(in ci\.env\): "fx"; /,
    );
  });

  it("is status 1 with the error's own text otherwise", () => {
    expect(startFailure(new TypeError("boom"))).toEqual({
      lines: ["could not start. TypeError: boom"],
      status: 1,
    });
  });
});
