import { describe, expect, it } from "vitest";
import { redactBody, redactHeaders } from "../../src/http/traffic/redact.js";

describe("redaction", () => {
  it("replaces secret headers, keeping an Authorization scheme, and secret body properties at any depth", () => {
    expect(
      redactHeaders({
        "x-app-token": "s",
        authorization: "Bearer abc",
        "x-service-oauth": "abc",
        "x-app-id": "id",
        none: undefined,
      }),
    ).toEqual({
      "x-app-token": "[redacted]",
      authorization: "Bearer [redacted]",
      "x-service-oauth": "[redacted]",
      "x-app-id": "id",
    });
    const body = { access_token: "t", nested: [{ access_token: "u", keep: 1 }] };
    expect(redactBody(body)).toEqual({
      access_token: "[redacted]",
      nested: [{ access_token: "[redacted]", keep: 1 }],
    });
    expect(body.access_token).toBe("t");
    const hostile = redactBody(JSON.parse('{"__proto__":{"polluted":1}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(hostile)).toBe(Object.prototype);
    expect(JSON.stringify(hostile)).toBe('{"__proto__":{"polluted":1}}');
  });
});
