import { describe, expect, it } from "vitest";
import { isLoopback, openControlWarning } from "../../src/cli/exposure.js";

describe("the warning when the control API is open to the network (issue 29)", () => {
  it("counts localhost, 127.0.0.0/8, ::1 and IPv4-mapped loopback as loopback, and nothing else", () => {
    for (const host of ["localhost", "127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "10.0.0.5", "192.168.1.2", "fe80::1"])
      expect(isLoopback(host), host).toBe(false);
  });

  it("says one line naming the address, the risk and the setting for 0.0.0.0 without a token", () => {
    const line = openControlWarning("0.0.0.0", undefined);
    expect(line).toBe(
      "warning: the control API (/__mock) and the dashboard answer anyone who reaches 0.0.0.0: they can read " +
        "every project's keys, reset state and inject faults; set LOYALTY_MOCK_ADMIN_TOKEN to require a token",
    );
    expect(line).not.toContain("\n");
    expect(openControlWarning("::", undefined)).toContain("reaches ::");
  });

  it("says nothing on loopback or with a token", () => {
    expect(openControlWarning("127.0.0.1", undefined)).toBeUndefined();
    expect(openControlWarning("::1", undefined)).toBeUndefined();
    expect(openControlWarning("0.0.0.0", "s3cret")).toBeUndefined();
  });
});
