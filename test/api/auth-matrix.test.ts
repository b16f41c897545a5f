import { describe, expect, it } from "vitest";
import { type AuthContext, authenticate } from "../../src/domain/auth/authenticate.js";
import { createKey } from "../../src/domain/auth/keys.js";
import { issueToken } from "../../src/domain/auth/tokens.js";
import { ApiError } from "../../src/domain/errors.js";
import type { Project } from "../../src/domain/projects/project.js";
import { errorBody } from "../../src/http/errors/http-errors.js";
import { type CredentialHeaders, credentialsFromHeaders } from "../../src/http/operations/credentials.js";
import {
  OPERATIONS,
  type Operation,
  type OperationName,
  operation,
} from "../../src/http/operations/table.js";
import { buildWorld, type World } from "../helpers/world.js";

/**
 * FIDELITY.md "Authentication", every cell, against the domain's authenticate() with the real registry and
 * stores. The HTTP tests of the token and location endpoints repeat the cells that matter over the wire.
 */

function tokenFor(world: World, project: Project, appId: string, scope: string): string {
  return issueToken(world.registry, project, project.apiKeys.get(appId), {
    grant_type: "client_credentials",
    scope,
  }).access_token;
}

function attempt(world: World, name: OperationName, headers: CredentialHeaders): AuthContext | ApiError {
  try {
    return authenticate(world.registry, credentialsFromHeaders(headers), operation(name).auth);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/** `details` is the exact text: a client shows it to people, and a word dropped from it is a change. */
function expectRefused(result: AuthContext | ApiError, status: number, details: string): void {
  expect(result).toBeInstanceOf(ApiError);
  const error = result as ApiError;
  expect({ status: error.status, key: error.key }).toEqual({
    status,
    key: status === 401 ? "unauthorized" : "forbidden",
  });
  expect(error.message).toBe(status === 401 ? "Unauthorized" : "Forbidden");
  expect(error.details).toBe(details);
}

function expectAllowed(result: AuthContext | ApiError, projectId: string): AuthContext {
  if (result instanceof ApiError) throw new Error(`refused: ${result.status} ${result.details}`);
  expect(result.project.id).toBe(projectId);
  return result;
}

/** The auth matrix is the operation table's: every row is tested, and a row without a scope here fails to compile. */
function title(name: OperationName): string {
  const row = operation(name);
  return `${row.method} ${row.path}`;
}

const PAIR = { appId: "demo-app-id", appToken: "demo-app-token" };
const names = (rows: readonly Operation[]) => rows.map((row) => row.name);
/** The rows by what their credentials are (row.auth): the key pair or a token; v2; the key pair only. */
const V1_WITH_TOKENS = names(OPERATIONS.filter((row) => row.auth.acceptsToken && !row.auth.v2));
const V2 = names(OPERATIONS.filter((row) => row.auth.v2));
const ALL = names(OPERATIONS);
/**
 * What a request with no credential at all is told, by the row's credentials: the key pair where only the key pair
 * opens it, the token headers it reads (X-Service-OAuth where it takes it, location retrieval), and both for
 * strict v2.
 */
const V1_MISSING = "Missing credentials: send X-App-Id and X-App-Token headers, or an OAuth token in the";
const STRICT_V2_MISSING =
  "Missing credentials: v2 operations need 'Authorization: Bearer <token>' and the X-App-Id and X-App-Token headers";
function missing(name: OperationName): string {
  const { auth } = operation(name);
  if (!auth.acceptsToken) return "Missing X-App-Id and X-App-Token headers";
  if (auth.v2) return STRICT_V2_MISSING;
  return `${V1_MISSING} ${auth.acceptsServiceOAuth ? "Authorization or X-Service-OAuth" : "Authorization"} header`;
}
const V2_NEEDS_TOKEN = "Missing Authorization header: v2 operations need 'Bearer <token>' and the key pair";
const V2_NEEDS_PAIR = "Missing X-App-Id and X-App-Token headers: v2 operations need them with the token";
const INVALID_PAIR = "Invalid X-App-Id or X-App-Token";
const scopesOf = (name: OperationName) => operation(name).auth.scopes;
/** The row's scope besides `api`: a token of that scope alone opens it too. */
const scopeFor = (name: OperationName) =>
  operation(name).auth.scopes.find((scope) => scope !== "api") ?? "api";

describe("the matrix's reading of the rows", () => {
  it("gives each operation what the service tells it, and its own scope", () => {
    const known = [
      "generateToken",
      "addMember",
      "getLocation",
      "trackEvent",
      "createTier",
      "deleteIncentive",
    ] as const;
    expect(known.map((name) => scopeFor(name))).toEqual([
      "api",
      "loyalties",
      "locations",
      "events",
      "loyalties",
      "loyalties",
    ]);
    expect(known.map((name) => missing(name))).toEqual([
      "Missing X-App-Id and X-App-Token headers",
      `${V1_MISSING} Authorization header`,
      `${V1_MISSING} Authorization or X-Service-OAuth header`,
      `${V1_MISSING} Authorization header`,
      STRICT_V2_MISSING,
      STRICT_V2_MISSING,
    ]);
    expect(V1_WITH_TOKENS).toEqual(expect.arrayContaining(["addMember", "getLocation", "trackEvent"]));
    expect(V2).toEqual(expect.arrayContaining(["createTier", "deleteIncentive"]));
  });
});

describe("authentication matrix", () => {
  for (const operation of ALL) {
    describe(title(operation), () => {
      it("no credentials: 401 saying what is missing", () => {
        expectRefused(attempt(buildWorld(), operation, {}), 401, missing(operation));
      });

      it("X-App-Id without X-App-Token: 401 Missing X-App-Token header", () => {
        expectRefused(
          attempt(buildWorld(), operation, { appId: "demo-app-id" }),
          401,
          "Missing X-App-Token header",
        );
      });

      it("X-App-Token without X-App-Id: 401 Missing X-App-Id header", () => {
        expectRefused(attempt(buildWorld(), operation, { appToken: "x" }), 401, "Missing X-App-Id header");
      });

      it("a wrong secret and an unknown app id answer identically", () => {
        const world = buildWorld();
        const wrongSecret = attempt(world, operation, { appId: "demo-app-id", appToken: "nope" }) as ApiError;
        const unknownId = attempt(world, operation, {
          appId: "no-such-app",
          appToken: "demo-app-token",
        }) as ApiError;
        expectRefused(wrongSecret, 401, INVALID_PAIR);
        expect(errorBody(unknownId, "r")).toEqual(errorBody(wrongSecret, "r"));
      });

      it("a key of another project's secret does not open this project", () => {
        const result = attempt(buildWorld(), operation, {
          appId: "demo-app-id",
          appToken: "other-app-token",
        });
        expectRefused(result, 401, INVALID_PAIR);
      });
    });
  }

  it("POST /v1/oauth/token takes the key pair only: a bearer token alone is refused", () => {
    const world = buildWorld();
    const token = tokenFor(world, world.demo, "demo-app-id", "api");
    expectRefused(
      attempt(world, "generateToken", { authorization: `Bearer ${token}` }),
      401,
      missing("generateToken"),
    );
    expectAllowed(attempt(world, "generateToken", PAIR), "demo");
  });

  for (const operation of V1_WITH_TOKENS) {
    describe(`${title(operation)} (key pair or token)`, () => {
      it("the key pair alone is enough", () => {
        expect(expectAllowed(attempt(buildWorld(), operation, PAIR), "demo").key?.app_id).toBe("demo-app-id");
      });

      it(`a token with scope api or ${scopeFor(operation)} is enough`, () => {
        const world = buildWorld();
        for (const scope of ["api", scopeFor(operation)]) {
          const token = tokenFor(world, world.demo, "demo-app-id", scope);
          const context = expectAllowed(
            attempt(world, operation, { authorization: `Bearer ${token}` }),
            "demo",
          );
          expect(context.token?.scope).toEqual([scope]);
        }
      });

      it("a token without the needed scope is 403 naming the scopes that would allow it", () => {
        const world = buildWorld();
        const token = tokenFor(world, world.demo, "demo-app-id", "vouchers customers");
        expectRefused(
          attempt(world, operation, { authorization: `Bearer ${token}` }),
          403,
          `The access token's scope (vouchers customers) does not allow this call; it needs api or ${scopeFor(operation)}`,
        );
      });

      it("an unknown token is 401", () => {
        const result = attempt(buildWorld(), operation, { authorization: "Bearer not-a-token-at-all" });
        expectRefused(result, 401, "Invalid access token");
      });

      it("an Authorization header that is not a Bearer token is 401", () => {
        const result = attempt(buildWorld(), operation, { authorization: "Basic ZGVtbzpkZW1v" });
        expectRefused(result, 401, "The access token must be sent as 'Bearer <token>'");
      });

      it("an expired token is 401 saying it expired", () => {
        const world = buildWorld();
        const token = tokenFor(world, world.demo, "demo-app-id", "api");
        world.clock.advance(900);
        expectRefused(
          attempt(world, operation, { authorization: `Bearer ${token}` }),
          401,
          "The access token has expired",
        );
      });

      it("a key pair and a token of the same project together are accepted", () => {
        const world = buildWorld();
        const token = tokenFor(world, world.demo, "demo-app-id", "api");
        expectAllowed(attempt(world, operation, { ...PAIR, authorization: `Bearer ${token}` }), "demo");
      });

      it("a key pair and a token of different projects are refused", () => {
        const world = buildWorld();
        const token = tokenFor(world, world.other, "other-app-id", "api");
        expectRefused(
          attempt(world, operation, { ...PAIR, authorization: `Bearer ${token}` }),
          401,
          "The access token and the X-App-Id belong to different projects",
        );
      });

      it("a valid key pair does not excuse a bad token sent with it", () => {
        const world = buildWorld();
        expectRefused(
          attempt(world, operation, { ...PAIR, authorization: "Bearer forged" }),
          401,
          "Invalid access token",
        );
      });

      it("a key whose permissions lack the operation's scopes is 403", () => {
        const result = attempt(buildWorld(), operation, {
          appId: "demo-readonly-app-id",
          appToken: "demo-readonly-app-token",
        });
        // The read-only key holds the scopes of some operations (locations): those it opens.
        const { permissions } = buildWorld().demo.apiKeys.get("demo-readonly-app-id");
        if (permissions.some((scope) => scopesOf(operation).includes(scope))) expectAllowed(result, "demo");
        else
          expectRefused(
            result,
            403,
            `The API key's permissions do not allow this call; it needs api or ${scopeFor(operation)}`,
          );
      });
    });
  }

  describe("X-Service-OAuth", () => {
    it("carries a token for location retrieval, with or without the Bearer prefix", () => {
      const world = buildWorld();
      const token = tokenFor(world, world.demo, "demo-app-id", "locations");
      expectAllowed(attempt(world, "getLocation", { serviceOAuth: token }), "demo");
      expectAllowed(attempt(world, "getLocation", { serviceOAuth: `Bearer ${token}` }), "demo");
    });

    it("is not a credential of the other operations", () => {
      const world = buildWorld();
      const token = tokenFor(world, world.demo, "demo-app-id", "api");
      const others = OPERATIONS.filter((row) => row.auth.acceptsToken && !row.auth.acceptsServiceOAuth);
      expect(names(others)).toEqual(
        expect.arrayContaining(["addMember", "trackEvent", "createTier", "deleteIncentive"]),
      );
      for (const { name } of others)
        expectRefused(attempt(world, name, { serviceOAuth: token }), 401, missing(name));
    });
  });

  for (const operation of V2) {
    describe(`${title(operation)} (v2)`, () => {
      it("strict by default: no credentials is 401 asking for both", () => {
        expectRefused(attempt(buildWorld(), operation, {}), 401, STRICT_V2_MISSING);
      });

      it("strict by default: the key pair alone is 401 asking for the bearer token", () => {
        expectRefused(attempt(buildWorld(), operation, PAIR), 401, V2_NEEDS_TOKEN);
      });

      it("strict by default: the token alone is 401 asking for the key pair", () => {
        const world = buildWorld();
        const token = tokenFor(world, world.demo, "demo-app-id", "loyalties");
        expectRefused(attempt(world, operation, { authorization: `Bearer ${token}` }), 401, V2_NEEDS_PAIR);
      });

      it("strict by default: bearer token and key pair of one project are accepted", () => {
        const world = buildWorld();
        const token = tokenFor(world, world.demo, "demo-app-id", "loyalties");
        expectAllowed(attempt(world, operation, { ...PAIR, authorization: `Bearer ${token}` }), "demo");
      });

      it("strict: a token of scope locations is 403", () => {
        const world = buildWorld();
        const token = tokenFor(world, world.demo, "demo-app-id", "locations");
        expectRefused(
          attempt(world, operation, { ...PAIR, authorization: `Bearer ${token}` }),
          403,
          "The access token's scope (locations) does not allow this call; it needs api or loyalties",
        );
      });

      it("the server-wide setting 'either' accepts the key pair alone or the token alone", () => {
        const world = buildWorld({ defaults: { v2AuthMode: "either" } });
        const token = tokenFor(world, world.demo, "demo-app-id", "loyalties");
        expectAllowed(attempt(world, operation, PAIR), "demo");
        expectAllowed(attempt(world, operation, { authorization: `Bearer ${token}` }), "demo");
      });

      it("a project's own setting overrides the server's", () => {
        const world = buildWorld();
        world.demo.settings = { ...world.demo.settings, v2_auth_mode: "either" };
        expectAllowed(attempt(world, operation, PAIR), "demo");
        expectRefused(
          attempt(world, operation, { appId: "other-app-id", appToken: "other-app-token" }),
          401,
          V2_NEEDS_TOKEN,
        );
      });
    });
  }

  describe("IP allow-lists", () => {
    function keyWithAllowlist(world: World) {
      return createKey(world.registry, world.demo, { ip_allowlist: ["10.1.0.0/16", "::1"] });
    }

    it("a key used from outside its allow-list is 403, with its key pair or its tokens", () => {
      const world = buildWorld();
      const key = keyWithAllowlist(world);
      const token = tokenFor(world, world.demo, key.app_id, "api");
      const pair = { appId: key.app_id, appToken: key.app_token };
      expectRefused(
        attempt(world, "getLocation", { ...pair, ip: "127.0.0.1" }),
        403,
        "Requests from 127.0.0.1 are not allowed for this API key",
      );
      expectRefused(
        attempt(world, "getLocation", { authorization: `Bearer ${token}`, ip: "10.2.0.1" }),
        403,
        "Requests from 10.2.0.1 are not allowed for this API key",
      );
    });

    it("inside the allow-list (IPv4, IPv4-mapped IPv6, an exact IPv6 address) it is accepted", () => {
      const world = buildWorld();
      const key = keyWithAllowlist(world);
      const pair = { appId: key.app_id, appToken: key.app_token };
      expectAllowed(attempt(world, "getLocation", { ...pair, ip: "10.1.2.3" }), "demo");
      expectAllowed(attempt(world, "getLocation", { ...pair, ip: "::ffff:10.1.200.7" }), "demo");
      expectAllowed(attempt(world, "getLocation", { ...pair, ip: "::1" }), "demo");
    });
  });
});
