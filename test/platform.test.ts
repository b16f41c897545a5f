import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEnvFile } from "../src/config/env-file.js";
import { ConfigError, readConfig } from "../src/config/settings.js";
import { ManualClock, ProjectClock } from "../src/platform/clock.js";
import { randomString, requestId, secretToken, v1Id, v2Id } from "../src/platform/ids.js";
import { secureEqual } from "../src/platform/secure-compare.js";

describe("clocks", () => {
  it("a project clock follows its root and moves on its own", () => {
    const root = new ManualClock("2026-11-20T10:00:00.000Z");
    const a = new ProjectClock(root);
    const b = new ProjectClock(root);
    a.advance(90);
    expect(a.iso()).toBe("2026-11-20T10:01:30.000Z");
    expect(b.iso()).toBe("2026-11-20T10:00:00.000Z");
    root.advance(10);
    expect(a.iso()).toBe("2026-11-20T10:01:40.000Z");
    b.set("2030-01-01T00:00:00.000Z");
    expect(b.iso()).toBe("2030-01-01T00:00:00.000Z");
    root.advance(1);
    expect(b.iso()).toBe("2030-01-01T00:00:01.000Z");
  });
});

describe("ids", () => {
  it("have the service's prefixes and bodies", () => {
    expect(v1Id("cust")).toMatch(/^cust_[A-Za-z0-9]{24}$/);
    expect(v2Id("lt")).toMatch(/^lt_[0-9a-f]{18}$/);
    expect(requestId()).toMatch(/^v-[0-9a-f]{18}$/);
    expect(secretToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("do not repeat", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => v2Id("linc")));
    expect(ids.size).toBe(10_000);
    const v1 = new Set(Array.from({ length: 10_000 }, () => v1Id("cust")));
    expect(v1.size).toBe(10_000);
    const tokens = new Set(Array.from({ length: 1000 }, () => secretToken()));
    expect(tokens.size).toBe(1000);
  });

  it("random strings draw every character of their charset alike, without modulo bias", () => {
    // 200 characters: 256 % 200 = 56, so a byte taken modulo 200 would make the first 56 characters twice as likely.
    const charset = Array.from({ length: 200 }, (_, i) => String.fromCharCode(0x100 + i)).join("");
    const counts = new Array<number>(200).fill(0);
    for (const char of randomString(60_000, charset)) {
      const index = charset.indexOf(char);
      counts[index] = (counts[index] ?? 0) + 1;
    }
    const mean = (from: number, to: number) =>
      counts.slice(from, to).reduce((a, b) => a + b, 0) / (to - from);
    expect(counts.every((count) => count > 0)).toBe(true);
    expect(mean(0, 56) / mean(56, 200)).toBeGreaterThan(0.9);
    expect(mean(0, 56) / mean(56, 200)).toBeLessThan(1.1);
    expect(randomString(5, "x")).toBe("xxxxx");
    // A charset longer than a byte can index still works.
    const wide = Array.from({ length: 300 }, (_, i) => String.fromCharCode(0x100 + i)).join("");
    expect([...randomString(50, wide)].every((char) => wide.includes(char))).toBe(true);
  });

  it("request ids stay unique and well-formed across refills of their random pool", () => {
    // A refill makes 256 ids; 5000 ids span about twenty.
    const ids = Array.from({ length: 5000 }, () => requestId());
    expect(new Set(ids).size).toBe(5000);
    expect(ids.every((id) => /^v-[0-9a-f]{18}$/.test(id))).toBe(true);
  });
});

describe("secureEqual", () => {
  it("compares secrets of any length", () => {
    expect(secureEqual("demo-app-token", "demo-app-token")).toBe(true);
    expect(secureEqual("demo-app-token", "demo-app-tokem")).toBe(false);
    expect(secureEqual("short", "a much longer secret")).toBe(false);
    expect(secureEqual("", "")).toBe(true);
  });
});

describe("settings", () => {
  it("has the documented defaults", () => {
    expect(readConfig({})).toEqual({
      HOST: "127.0.0.1",
      PORT: 3000,
      LOG_LEVEL: "info",
      EXIT_WITH_PARENT: true,
      BODY_LIMIT_BYTES: 1_048_576,
      TOKEN_GRACE_SECONDS: 60,
      TOKEN_LIMIT: 1000,
      RATE_LIMIT_PER_MINUTE: 2000,
      V2_AUTH_MODE: "strict",
      TRUST_PROXY: false,
      CORS_ORIGINS: "*",
      JOURNAL_SIZE: 1000,
      STATE_SYNC: "interval",
      STATE_SAVE_INTERVAL_MS: 1000,
      STATE_COMPACT_BYTES: 67_108_864,
      HEADER_LIMIT_BYTES: 16_384,
      HEADERS_TIMEOUT_MS: 10_000,
      REQUEST_TIMEOUT_MS: 30_000,
      WRITE_TIMEOUT_MS: 30_000,
      JSON_DEPTH_LIMIT: 32,
      STRING_LIMIT_CHARS: 65_536,
      METADATA_KEYS_LIMIT: 256,
      PROJECT_LIMIT: 1000,
      KEY_LIMIT: 1000,
      FAULT_LIMIT: 1000,
      EVENT_LIMIT: 100_000,
      MEMBER_LIMIT: 100_000,
      WEBHOOK_LIMIT: 100,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_QUEUE_LIMIT: 1000,
      WEBHOOK_OUTBOX_SIZE: 1000,
    });
  });

  it("reads values, treating empty ones as unset", () => {
    const config = readConfig({
      PORT: "8080",
      V2_AUTH_MODE: "either",
      TRUST_PROXY: "loopback",
      FIXTURES_DIR: "",
      HOST: "",
    });
    expect(config).toMatchObject({
      PORT: 8080,
      V2_AUTH_MODE: "either",
      TRUST_PROXY: "loopback",
      HOST: "127.0.0.1",
    });
    expect(config.FIXTURES_DIR).toBeUndefined();
    expect(readConfig({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(readConfig({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
  });

  it("refuses a bad value naming the variable", () => {
    expect(() => readConfig({ PORT: "70000" })).toThrow(ConfigError);
    expect(() => readConfig({ V2_AUTH_MODE: "loose" })).toThrow(/V2_AUTH_MODE/);
    expect(() => readConfig({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
    expect(() => readConfig({ JSON_DEPTH_LIMIT: "1" })).toThrow(/JSON_DEPTH_LIMIT/);
    expect(() => readConfig({ LOYALTY_MOCK_WRITE_TIMEOUT_MS: "10" })).toThrow(/WRITE_TIMEOUT_MS/);
    expect(() => readConfig({ LOYALTY_MOCK_EVENT_LIMIT: "0" })).toThrow(/EVENT_LIMIT/);
    expect(() => readConfig({ LOYALTY_MOCK_PROJECT_LIMIT: "many" })).toThrow(/PROJECT_LIMIT/);
    expect(() => readConfig({ LOYALTY_MOCK_STATE_COMPACT_BYTES: "100" })).toThrow(/STATE_COMPACT_BYTES/);
    expect(() => readConfig({ HEADERS_TIMEOUT_MS: "60000" })).toThrow(
      /must not be longer than LOYALTY_MOCK_REQUEST_TIMEOUT_MS/,
    );
  });
});

describe("--env-file", () => {
  // Before 0.5.0 this was .env in the working directory, read into process.env; now the file is named, and read
  // into the settings only, without changing the process's environment.
  it("fills in unset variables and never overrides the environment", () => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-env-"));
    const file = join(dir, ".env");
    writeFileSync(file, "LM_TEST_FROM_FILE=file\nLM_TEST_BOTH=file\n");
    try {
      const env: NodeJS.ProcessEnv = { ...readEnvFile(file), LM_TEST_BOTH: "environment" };
      expect(env.LM_TEST_FROM_FILE).toBe("file");
      expect(env.LM_TEST_BOTH).toBe("environment");
      expect(process.env.LM_TEST_FROM_FILE).toBeUndefined();
      // Named explicitly, a missing file is a mistake, not an empty file.
      expect(() => readEnvFile(join(dir, "missing.env"))).toThrow(
        /^Invalid value for --env-file: ".*missing\.env"; cannot be read \(ENOENT\); expected a readable file$/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
