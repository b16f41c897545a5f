import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  assertErrorBody,
  contract,
  contractPath,
  errorBodyValidator,
  expectContract,
  loadContract,
  operationFor,
  validateAny,
  validateResponse,
} from "./contract.js";
import { needsContract } from "./contract-skips.js";

const TOKEN = "/v1/oauth/token";
const LOCATION = "/v1/locations/{locationId}";
const INCENTIVE = "/v2/loyalties/incentives/{id}";

const token = {
  access_token: "at_0123456789abcdef",
  client_id: "cl_0123456789",
  expires_at: 1_767_225_600_000,
  expires_in: 900,
  scope: "api loyalties",
  token_type: "Bearer",
};
const v1Error = {
  code: 400,
  key: "invalid_scope",
  message: "Invalid scope: x",
  request_id: "v-0123456789abcdef01",
};
const circleLocation = {
  id: "loc_NoMGXmHO9OUs7iz9mGWpamma",
  object: "location",
  name: "Belleville",
  shape: {
    type: "circle",
    format: "distance",
    distance: { center: "geo:40.79372699823857,-74.15092132694554", radius: "1.54 km" },
  },
  created_at: "2022-07-15T06:04:36.924Z",
  updated_at: null,
};
const polygonLocation = {
  id: "loc_RcYz537sV07e1t5aG5tIH9FD",
  object: "location",
  name: "Poland",
  shape: {
    type: "polygon",
    format: "geojson",
    geojson: {
      type: "Polygon",
      coordinates: [
        [
          [18.553923, 50.559107],
          [18.528805, 51.087437],
          [19.591667, 50.832424],
          [18.553923, 50.559107],
        ],
      ],
    },
  },
  created_at: "2022-07-14T15:21:55.085Z",
  updated_at: null,
};

const without = <T extends object>(o: T, key: keyof T): Partial<T> => {
  const copy: Partial<T> = { ...o };
  delete copy[key];
  return copy;
};

describe("validateResponse", needsContract("sixOperations"), () => {
  it("accepts a valid OAuth token body", () => {
    expect(() => validateResponse("POST", TOKEN, 200, token)).not.toThrow();
  });

  it("rejects a token body missing access_token", () => {
    expect(() => validateResponse("POST", TOKEN, 200, without(token, "access_token"))).toThrow(
      /access_token/,
    );
  });

  it('rejects token_type "bearer" (the enum is "Bearer")', () => {
    expect(() => validateResponse("post", TOKEN, 200, { ...token, token_type: "bearer" })).toThrow(
      /token_type/,
    );
  });

  it("accepts a v1 error body on a listed 4xx status", () => {
    expect(() => validateResponse("POST", TOKEN, 400, v1Error)).not.toThrow();
  });

  it("rejects a v1 error body without message", () => {
    expect(() => validateResponse("POST", TOKEN, 400, without(v1Error, "message"))).toThrow(/message/);
  });

  it("rejects a v2 error without key (ErrorResponse requires key), following the NotFound $ref", () => {
    const v2Error = { code: 404, key: "not_found", message: "Resource not found", request_id: null };
    expect(() => validateResponse("DELETE", INCENTIVE, 404, v2Error)).not.toThrow();
    expect(() => validateResponse("DELETE", INCENTIVE, 404, without(v2Error, "key"))).toThrow(
      /must have required property 'key'/,
    );
    // An unlisted error status uses the operation's own (v2) error schema, not the v1 Error.
    expect(() => validateResponse("DELETE", INCENTIVE, 401, { code: 401, message: "Unauthorized" })).toThrow(
      /key/,
    );
  });

  it("accepts a circle location and a GeoJSON polygon location", () => {
    expect(() => validateResponse("GET", LOCATION, 200, circleLocation)).not.toThrow();
    expect(() => validateResponse("GET", LOCATION, 200, polygonLocation)).not.toThrow();
  });

  it('rejects a location whose object is "voucher"', () => {
    expect(() => validateResponse("GET", LOCATION, 200, { ...circleLocation, object: "voucher" })).toThrow(
      /\/object/,
    );
  });

  it("rejects a polygon whose coordinates are not number pairs", () => {
    const bad = structuredClone(polygonLocation);
    bad.shape.geojson.coordinates = [[[18.5]]];
    expect(() => validateResponse("GET", LOCATION, 200, bad)).toThrow();
  });

  it("validates an unlisted 401 on the location operation as Error", () => {
    const unauthorized = { code: 401, key: "unauthorized", message: "Unauthorized" };
    expect(() => validateResponse("GET", LOCATION, 401, unauthorized)).not.toThrow();
    expect(() => validateResponse("GET", LOCATION, 401, { key: "unauthorized" })).toThrow(
      /components\/schemas\/Error/,
    );
  });

  it("throws on an unlisted 2xx status and on success from an unknown route", () => {
    expect(() => validateResponse("POST", TOKEN, 201, token)).toThrow(/status not listed/);
    expect(() => validateResponse("GET", "/v1/nope", 200, {})).toThrow(/not an operation/);
    expect(() => validateResponse("GET", TOKEN, 200, token)).toThrow(/not an operation/);
  });

  it("validates errors from unknown routes against Error", () => {
    const notFound = { code: 404, key: "not_found", message: "Resource not found" };
    expect(() => validateResponse("GET", "/v1/nope", 404, notFound)).not.toThrow();
    expect(() => validateResponse("GET", "/v1/nope", 404, { error: "nope" })).toThrow();
  });

  it("puts operation, status, errors and a truncated body in the message", () => {
    const huge = { ...token, access_token: 42, padding: "x".repeat(5000) };
    let message = "";
    try {
      validateResponse("POST", TOKEN, 200, huge);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("POST /v1/oauth/token -> 200");
    expect(message).toContain("/access_token must be string");
    expect(message).toContain("body: {");
    expect(message.length).toBeLessThan(3000);
  });
});

describe(
  "expectContract / operationFor / validateAny / errorBodyValidator",
  needsContract("sixOperations"),
  () => {
    it("expectContract validates a supertest-shaped response and returns it", () => {
      const res = { status: 200, body: token, headers: {} };
      expect(expectContract(res, "POST", TOKEN)).toBe(res);
      expect(() => expectContract({ status: 200, body: {} }, "POST", TOKEN)).toThrow();
    });

    it("operationFor maps concrete paths to templates", () => {
      expect(operationFor("POST", "/v2/loyalties/tier-structures/lts_1/tiers")).toBe(
        "/v2/loyalties/tier-structures/{id}/tiers",
      );
      expect(operationFor("get", "/v1/locations/loc_abc?x=1")).toBe(LOCATION);
      expect(operationFor("POST", "/v1/oauth/token")).toBe(TOKEN);
      expect(operationFor("GET", "/v1/locations/")).toBeUndefined();
      expect(operationFor("GET", "/v1/locations/a/b")).toBeUndefined();
      expect(operationFor("GET", "/v1/oauth/token")).toBeUndefined();
      expect(operationFor("GET", "/v1/unknown")).toBeUndefined();
    });

    it("validateAny maps, validates and falls back to Error for unknown paths", () => {
      expect(() => validateAny("GET", "/v1/locations/loc_abc", 200, circleLocation)).not.toThrow();
      expect(() => validateAny("GET", "/v1/locations/loc_abc", 200, { object: "voucher" })).toThrow();
      expect(() => validateAny("GET", "/v9/what", 404, { code: 404, message: "Not found" })).not.toThrow();
      expect(() => validateAny("GET", "/v9/what", 404, { code: "404", message: "Not found" })).toThrow();
      expect(() => validateAny("GET", "/v9/what", 200, {})).toThrow();
    });

    it("errorBodyValidator() is the compiled Error validator", () => {
      const validateErrorBody = errorBodyValidator();
      expect(validateErrorBody(v1Error)).toBe(true);
      expect(validateErrorBody({ code: 400 })).toBe(false);
      expect(validateErrorBody.errors?.[0]?.params).toEqual({ missingProperty: "message" });
      expect(() => assertErrorBody(v1Error)).not.toThrow();
      expect(() => assertErrorBody({ message: "no code" })).toThrow(/code/);
    });
  },
);

describe("the contract, read at test time", () => {
  it("fails naming the path it looked at when the file is missing", () => {
    const missing = join(tmpdir(), "no-such-dir", "six-operations.openapi.json");
    expect(() => loadContract(missing)).toThrow(`cannot read the OpenAPI contract at ${missing}`);
    expect(() => loadContract(missing)).toThrow(/ENOENT.*set CONTRACT_FILE/);
  });

  it("is the vendor's document as published, provenance and all", needsContract("sixOperations"), () => {
    expect(contract).toEqual(JSON.parse(readFileSync(contractPath() as string, "utf8")));
    expect(contract?.info.license).toMatchObject({ name: "MIT" });
    expect(contract?.info["x-source"]).toMatchObject({
      repo: "https://github.com/voucherifyio/voucherify-openapi",
    });
  });
});
