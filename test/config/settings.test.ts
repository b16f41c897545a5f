import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "../../src/config/settings.js";
import { readSettingsFile } from "../../src/config/settings-file.js";

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
      SNAPSHOT_LIMIT: 20,
      SNAPSHOT_MEMORY_MB: 1536,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_QUEUE_LIMIT: 1000,
      WEBHOOK_OUTBOX_SIZE: 1000,
    });
  });

  it("reads values, treating empty ones as unset", () => {
    const config = readConfig({
      LOYALTY_MOCK_PORT: "8080",
      LOYALTY_MOCK_V2_AUTH_MODE: "either",
      LOYALTY_MOCK_TRUST_PROXY: "loopback",
      LOYALTY_MOCK_FIXTURES_DIR: "",
      LOYALTY_MOCK_HOST: "",
    });
    expect(config).toMatchObject({
      PORT: 8080,
      V2_AUTH_MODE: "either",
      TRUST_PROXY: "loopback",
      HOST: "127.0.0.1",
    });
    expect(config.FIXTURES_DIR).toBeUndefined();
    expect(readConfig({ LOYALTY_MOCK_TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(readConfig({ LOYALTY_MOCK_TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
  });

  it("refuses a bad value naming the variable", () => {
    expect(() => readConfig({ LOYALTY_MOCK_PORT: "70000" })).toThrow(ConfigError);
    expect(() => readConfig({ LOYALTY_MOCK_V2_AUTH_MODE: "loose" })).toThrow(/V2_AUTH_MODE/);
    expect(() => readConfig({ LOYALTY_MOCK_LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
    expect(() => readConfig({ LOYALTY_MOCK_JSON_DEPTH_LIMIT: "1" })).toThrow(/JSON_DEPTH_LIMIT/);
    expect(() => readConfig({ LOYALTY_MOCK_WRITE_TIMEOUT_MS: "10" })).toThrow(/WRITE_TIMEOUT_MS/);
    expect(() => readConfig({ LOYALTY_MOCK_EVENT_LIMIT: "0" })).toThrow(/EVENT_LIMIT/);
    expect(() => readConfig({ LOYALTY_MOCK_PROJECT_LIMIT: "many" })).toThrow(/PROJECT_LIMIT/);
    expect(() => readConfig({ LOYALTY_MOCK_STATE_COMPACT_BYTES: "100" })).toThrow(/STATE_COMPACT_BYTES/);
    expect(() => readConfig({ LOYALTY_MOCK_FREEZE_CLOCK: "9999-12-31T00:00:00Z" })).toThrow(
      'Invalid value for LOYALTY_MOCK_FREEZE_CLOCK: "9999-12-31T00:00:00Z"; expected an ISO 8601 instant from 0000-01-01T00:00:00.000Z to 9999-12-30T23:59:59.999Z',
    );
    expect(() => readConfig({ LOYALTY_MOCK_HEADERS_TIMEOUT_MS: "60000" })).toThrow(
      /must not be longer than LOYALTY_MOCK_REQUEST_TIMEOUT_MS/,
    );
  });
});

describe("--settings-file", () => {
  // Before 0.5.0 this was .env in the working directory, read into process.env; now the file is named, and read
  // into the settings only, without changing the process's environment.
  it("fills in unset variables and never overrides the environment", () => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-env-"));
    const file = join(dir, ".env");
    writeFileSync(file, "LM_TEST_FROM_FILE=file\nLM_TEST_BOTH=file\n");
    try {
      const env: NodeJS.ProcessEnv = { ...readSettingsFile(file), LM_TEST_BOTH: "environment" };
      expect(env.LM_TEST_FROM_FILE).toBe("file");
      expect(env.LM_TEST_BOTH).toBe("environment");
      expect(process.env.LM_TEST_FROM_FILE).toBeUndefined();
      // Named explicitly, a missing file is a mistake, not an empty file.
      expect(() => readSettingsFile(join(dir, "missing.env"))).toThrow(
        /^Invalid value for --settings-file: ".*missing\.env"; cannot be read \(ENOENT\); expected a readable file$/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
