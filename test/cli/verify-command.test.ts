import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../src/cli/command-line.js";

// `loyalty-mock verify`'s flags; what a wrong one prints is in test/slow/verify-bin.test.ts.

describe("loyalty-mock verify: the command line", () => {
  it("reads every flag", () => {
    const args = [
      "verify",
      "--config",
      "v.json",
      "--record",
      "r.json",
      "--json",
      "o.json",
      "--mock",
      "http://m:1/",
    ];
    expect(parseCommandLine([...args, "--allow-writes"])).toEqual({
      command: "verify",
      config: "v.json",
      record: "r.json",
      json: "o.json",
      mock: "http://m:1",
      allowWrites: true,
    });
    expect(parseCommandLine(["verify", "--replay", "r.json", "--max-answer-bytes", "65536"])).toEqual({
      command: "verify",
      replay: "r.json",
      allowWrites: false,
      maxAnswerBytes: 65536,
    });
    expect(parseCommandLine(["verify", "--replay", "r.json"])).toEqual({
      command: "verify",
      replay: "r.json",
      allowWrites: false,
    });
  });

  it.each([
    [[], "verify: give --config <file> (the target and its objects), or --replay <recording>"],
    [
      ["--config", "a", "--record", "r", "--replay", "r"],
      "verify: --record calls the target and --replay does not",
    ],
    [
      ["--config", "a", "--mock", "ftp://x"],
      'verify: invalid value for --mock: "ftp://x"; expected an http:// URL',
    ],
    [["--config", "a", "--target", "x"], "verify: Unknown option '--target'"],
    [
      ["--config", "a", "--mock", "http://me:pw@127.0.0.1:3000"],
      "verify: invalid value for --mock: must not hold a user name or password (user:pw@)",
    ],
    ...["0", "1e6", "5.5", "268435457", "8MiB"].map((value) => [
      ["--config", "a", "--max-answer-bytes", value],
      `verify: invalid value for --max-answer-bytes: "${value}"; expected a whole number of bytes from 1 to 268435456 (default 8388608)`,
    ]),
  ])("%j is a usage error (exit 2)", (args, message) => {
    expect(() => parseCommandLine(["verify", ...args])).toThrow(UsageError);
    expect(() => parseCommandLine(["verify", ...args])).toThrow(message);
  });
});
