import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../src/cli.js";

// The built command itself, spawned as a user runs it, is test/slow/cli-bin.test.ts.

describe("parseCommandLine", () => {
  it("turns each flag into its setting", () => {
    expect(
      parseCommandLine([
        "--port",
        "4000",
        "--host=0.0.0.0",
        "--fixtures",
        "./fx",
        "--state-file",
        "s.json",
        "--state-sync",
        "always",
        "--log-level",
        "debug",
        "--admin-token",
        "sekrit",
      ]),
    ).toEqual({
      command: "serve",
      env: {
        PORT: "4000",
        HOST: "0.0.0.0",
        FIXTURES_DIR: "./fx",
        STATE_FILE: "s.json",
        STATE_SYNC: "always",
        LOG_LEVEL: "debug",
        MOCK_ADMIN_TOKEN: "sekrit",
      },
    });
    expect(parseCommandLine([])).toEqual({ command: "serve", env: {} });
    expect(parseCommandLine(["-p", "0"])).toEqual({ command: "serve", env: { PORT: "0" } });
    expect(parseCommandLine(["--port", "1", "--help"])).toEqual({ command: "help" });
    expect(parseCommandLine(["--version"])).toEqual({ command: "version" });
  });

  const MISUSE: [string[], RegExp][] = [
    [["--prot", "3000"], /^Unknown option '--prot'/],
    [["--port"], /^Option '-p, --port <value>' argument missing/],
    [["serve"], /^Unexpected argument 'serve'/],
    [["--port", "http"], /^Invalid value for --port: /],
    [["--state-sync", "sometimes"], /^Invalid value for --state-sync: /],
    [["--log-level", "loud"], /^Invalid value for --log-level: /],
  ];
  for (const [args, message] of MISUSE)
    it(`refuses ${args.join(" ")}`, () => {
      expect(() => parseCommandLine(args)).toThrow(UsageError);
      expect(() => parseCommandLine(args)).toThrow(message);
    });
});
