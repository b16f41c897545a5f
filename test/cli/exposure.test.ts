import { describe, expect, it } from "vitest";
import { everyAddressLine, isLoopback, openControlWarning } from "../../src/cli/exposure.js";
import { startServer } from "../../src/index.js";
import { docBlock } from "../helpers/consumer.js";

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

describe("the start line on every address (0.0.0.0, ::)", () => {
  const interfaces = {
    lo: [{ address: "127.0.0.1", family: "IPv4", internal: true }],
    eth0: [
      { address: "192.168.1.20", family: "IPv4", internal: false },
      { address: "fe80::1", family: "IPv6", internal: false },
      { address: "2001:db8::20", family: "IPv6", internal: false },
    ],
  } as unknown as Parameters<typeof everyAddressLine>[2];

  it("names this machine's other addresses to open, IPv6 ones only for ::", () => {
    expect(everyAddressLine("0.0.0.0", 3000, interfaces)).toBe(
      "listening on every address (0.0.0.0): also http://192.168.1.20:3000",
    );
    expect(everyAddressLine("::", 3000, interfaces)).toBe(
      "listening on every address (::): also http://192.168.1.20:3000, http://[2001:db8::20]:3000",
    );
    expect(everyAddressLine("0.0.0.0", 3000, { lo: interfaces?.lo })).toBe(
      "listening on every address (0.0.0.0); this machine has no other address than loopback",
    );
  });

  it("says nothing for one address", () => {
    for (const host of ["127.0.0.1", "192.168.1.20", "::1", "localhost"])
      expect(everyAddressLine(host, 3000, interfaces), host).toBeUndefined();
  });

  it("startServer's url on 0.0.0.0 is the loopback one, which a browser opens", async () => {
    const mock = await startServer({ host: "0.0.0.0", port: 0 });
    try {
      expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
      expect(mock.host).toBe("0.0.0.0");
      expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});

describe("docs/reference/security.md, The control API on a network", () => {
  it("shows the warning the server writes for 0.0.0.0 without a token, word for word", () => {
    const shown = docBlock("docs/reference/security.md", "## The control API on a network", "");
    expect(shown).toBe(`loyalty-mock: ${openControlWarning("0.0.0.0", undefined)}\n`);
  });
});
