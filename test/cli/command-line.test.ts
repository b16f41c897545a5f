import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../src/cli/command-line.js";

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
        ADMIN_TOKEN: "sekrit",
      },
    });
    expect(parseCommandLine([])).toEqual({ command: "serve", env: {} });
    expect(parseCommandLine(["-p", "0"])).toEqual({ command: "serve", env: { PORT: "0" } });
    expect(parseCommandLine(["--port", "1", "--help"])).toEqual({ command: "help" });
    expect(parseCommandLine(["--version"])).toEqual({ command: "version" });
    expect(parseCommandLine(["--env-file", "ci.env", "-p", "0"])).toEqual({
      command: "serve",
      env: { PORT: "0" },
      envFile: "ci.env",
    });
  });

  it("wait: a server's --url or the --log its address is printed in, and --timeout in seconds (30)", () => {
    expect(parseCommandLine(["wait", "--url", "http://127.0.0.1:3000/"])).toEqual({
      command: "wait",
      url: "http://127.0.0.1:3000",
      timeoutSeconds: 30,
    });
    expect(parseCommandLine(["wait", "--log", "mock.err", "--timeout", "2.5"])).toEqual({
      command: "wait",
      log: "mock.err",
      timeoutSeconds: 2.5,
    });
  });

  const MISUSE: [string[], RegExp][] = [
    [["--prot", "3000"], /^Unknown option '--prot'/],
    [["--port"], /^Option '-p, --port <value>' argument missing/],
    [["serve"], /^Unexpected argument 'serve'/],
    [["--port", "http"], /^Invalid value for --port: "http"; expected a whole number from 0 to 65535$/],
    [
      ["--host", "notahost"],
      /^Invalid value for --host: "notahost"; expected an IP address .* or localhost$/,
    ],
    [["--state-sync", "sometimes"], /^Invalid value for --state-sync: /],
    [["--log-level", "loud"], /^Invalid value for --log-level: "loud"; expected one of fatal, error, warn, /],
    [["wait"], /^wait: give --url <url> .* or --log <file>, not both$/],
    [["wait", "--url", "http://x", "--log", "f"], /^wait: give --url <url> .* or --log <file>, not both$/],
    [
      ["wait", "--url", "localhost:3000"],
      /^Invalid value for --url: "localhost:3000"; expected an http:\/\/ URL$/,
    ],
    [["wait", "--url", "http://x", "--timeout", "0"], /^Invalid value for --timeout: "0"; expected seconds/],
  ];
  for (const [args, message] of MISUSE)
    it(`refuses ${args.join(" ")}`, () => {
      expect(() => parseCommandLine(args)).toThrow(UsageError);
      expect(() => parseCommandLine(args)).toThrow(message);
    });
});
