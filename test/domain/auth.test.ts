import { describe, expect, it } from "vitest";
import { attribute } from "../../src/domain/auth/attribution.js";
import { authenticate, stillAuthenticated } from "../../src/domain/auth/authenticate.js";
import { blockKey, createKey, deleteKey } from "../../src/domain/auth/keys.js";
import { issueToken } from "../../src/domain/auth/tokens.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { operation } from "../../src/http/operations/table.js";
import { refusalOf } from "../helpers/refusal.js";
import { buildWorld, type World } from "../helpers/world.js";

/**
 * Authentication through the domain: what a mutation run (docs/internals/testing.md, "Mutation testing") of
 * src/domain/auth/ found no test to fail on. A request authenticated before a control call (a block, a reset, a
 * deletion) no longer holds after it; an allow-list of one address allows that address only; a token needs one
 * of its scopes, not all, among the operation's.
 */

const locations = operation("getLocation").auth;

const pair = (world: World, appId: string, appToken: string, ip?: string) =>
  authenticate(world.registry, { appId, appToken, ...(ip !== undefined && { ip }) }, locations);

describe("an authentication that a control call lands behind", () => {
  it("holds while nothing changed", () => {
    const world = buildWorld();
    expect(stillAuthenticated(world.registry, pair(world, "demo-app-id", "demo-app-token"))).toBe(true);
  });

  it("does not hold once the key is blocked, the project reset or the project removed", () => {
    const world = buildWorld();
    const blocked = pair(world, "demo-app-id", "demo-app-token");
    blockKey(world.registry, world.demo, "demo-app-id");
    expect(stillAuthenticated(world.registry, blocked)).toBe(false);

    const reset = pair(world, "other-app-id", "other-app-token");
    world.registry.reset("other");
    expect(stillAuthenticated(world.registry, reset)).toBe(false);

    const again = buildWorld();
    const removed = pair(again, "other-app-id", "other-app-token");
    again.registry.remove("other");
    expect(stillAuthenticated(again.registry, removed)).toBe(false);
  });

  it("with a token, does not hold once the token has expired, and holds until then", () => {
    const world = buildWorld();
    const key = world.demo.apiKeys.get("demo-app-id");
    const { access_token } = issueToken(world.registry, world.demo, key, {
      grant_type: "client_credentials",
      scope: "api",
    });
    const auth = authenticate(world.registry, { bearer: { value: access_token } }, locations);
    world.clock.advance(15 * 60 - 1);
    expect(stillAuthenticated(world.registry, auth)).toBe(true);
    world.clock.advance(1);
    expect(stillAuthenticated(world.registry, auth)).toBe(false);
  });
});

describe("a key's IP allow-list", () => {
  it("of one address allows that address only, and no request whose address is unknown", () => {
    const world = buildWorld();
    createKey(world.registry, world.demo, {
      app_id: "one-address",
      app_token: "one-address-token",
      permissions: ["api"],
      ip_allowlist: ["10.0.0.1"],
    });
    expect(pair(world, "one-address", "one-address-token", "10.0.0.1").project).toBe(world.demo);
    expect(refusalOf(() => pair(world, "one-address", "one-address-token", "10.0.0.2"))).toEqual({
      status: 403,
      details: "Requests from 10.0.0.2 are not allowed for this API key",
    });
    expect(refusalOf(() => pair(world, "one-address", "one-address-token", "10.200.0.1"))).toEqual({
      status: 403,
      details: "Requests from 10.200.0.1 are not allowed for this API key",
    });
    expect(refusalOf(() => pair(world, "one-address", "one-address-token"))).toEqual({
      status: 403,
      details: "Requests from an unknown address are not allowed for this API key",
    });
  });
});

describe("a token's scope", () => {
  it("needs one of its values among the operation's, not every one", () => {
    const world = buildWorld();
    const key = world.demo.apiKeys.get("demo-app-id");
    const { access_token } = issueToken(world.registry, world.demo, key, {
      grant_type: "client_credentials",
      scope: "events locations",
    });
    expect(authenticate(world.registry, { bearer: { value: access_token } }, locations).project).toBe(
      world.demo,
    );
  });
});

describe("blocking a key", () => {
  it("a second time keeps the time of the first", () => {
    const world = buildWorld();
    blockKey(world.registry, world.demo, "demo-app-id");
    const first = world.demo.apiKeys.get("demo-app-id").blocked_at;
    world.clock.advance(60);
    blockKey(world.registry, world.demo, "demo-app-id");
    expect(world.demo.apiKeys.get("demo-app-id").blocked_at).toBe(first);
    expect(first).toBe("2026-11-20T10:00:00.000Z");
  });
});

describe("revoking a key's tokens", () => {
  it("keeps a token's earlier revocation time when the key is revoked again later", () => {
    const world = buildWorld();
    const key = world.demo.apiKeys.get("demo-app-id");
    issueToken(world.registry, world.demo, key, { grant_type: "client_credentials", scope: "api" });
    blockKey(world.registry, world.demo, "demo-app-id");
    const revokeAt = () => exportProject(world.demo).tokens.map((token) => token.revoke_at);
    const first = revokeAt();
    world.clock.advance(30);
    deleteKey(world.registry, world.demo, "demo-app-id");
    expect(revokeAt()).toEqual(first);
    expect(first).toHaveLength(1);
    expect(first[0]).not.toBeNull();
  });

  it("moves a token's revocation earlier when the key is revoked again with a shorter grace", () => {
    const world = buildWorld();
    world.demo.settings = { ...world.demo.settings, token_grace_seconds: 3600 };
    const key = world.demo.apiKeys.get("demo-app-id");
    issueToken(world.registry, world.demo, key, { grant_type: "client_credentials", scope: "api" });
    blockKey(world.registry, world.demo, "demo-app-id");
    const revokeAt = () => exportProject(world.demo).tokens.map((token) => token.revoke_at);
    const blocked = world.clock.now();
    expect(revokeAt()).toEqual([new Date(blocked + 3_600_000).toISOString()]);
    world.demo.settings = { ...world.demo.settings, token_grace_seconds: 0 };
    world.clock.advance(30);
    deleteKey(world.registry, world.demo, "demo-app-id");
    expect(revokeAt()).toEqual([new Date(blocked + 30_000).toISOString()]);
  });
});

describe("keys and tokens as the project keeps them", () => {
  it("a second key under an app id the project has is refused, naming it", () => {
    const world = buildWorld();
    expect(refusalOf(() => createKey(world.registry, world.demo, { app_id: "demo-app-id" }))).toEqual({
      status: 409,
      details: "App id demo-app-id is used by another key",
    });
  });

  it("a token keeps its key's permissions and allow-list, and its scope values split on any run of spaces", () => {
    const world = buildWorld();
    const key = createKey(world.registry, world.demo, {
      app_id: "listed",
      app_token: "listed-token",
      permissions: ["api", "locations"],
      ip_allowlist: ["10.0.0.0/8"],
    });
    const issued = issueToken(world.registry, world.demo, key, {
      grant_type: "client_credentials",
      scope: "api  locations",
    });
    const exported = exportProject(world.demo).tokens.find(
      (token) => token.access_token === issued.access_token,
    );
    expect(exported).toMatchObject({
      scope: ["api", "locations"],
      permissions: ["api", "locations"],
      ip_allowlist: ["10.0.0.0/8"],
    });
  });

  it("an expired token stays in the project's state until the cap needs its room", () => {
    const world = buildWorld();
    const key = world.demo.apiKeys.get("demo-app-id");
    const request = { grant_type: "client_credentials", scope: "api" } as const;
    issueToken(world.registry, world.demo, key, request);
    world.clock.advance(16 * 60);
    issueToken(world.registry, world.demo, key, request);
    expect(exportProject(world.demo).tokens).toHaveLength(2);
  });
});

describe("attributing a request to a project", () => {
  it("is verified for an active key's pair or a valid token, and not for a blocked key's", () => {
    const world = buildWorld();
    const key = world.demo.apiKeys.get("demo-app-id");
    const { access_token } = issueToken(world.registry, world.demo, key, {
      grant_type: "client_credentials",
      scope: "api",
    });
    const credentials = { appId: "demo-app-id", appToken: "demo-app-token" };
    expect(attribute(world.registry, credentials)).toEqual({ project: world.demo, verified: true });
    expect(attribute(world.registry, { bearer: { value: access_token } })).toEqual({
      project: world.demo,
      verified: true,
    });
    blockKey(world.registry, world.demo, "demo-app-id");
    // A request's attribution is decided once and kept on its credentials; the next request is judged afresh.
    expect(attribute(world.registry, credentials)).toEqual({ project: world.demo, verified: true });
    const next = { appId: "demo-app-id", appToken: "demo-app-token" };
    expect(attribute(world.registry, next)).toEqual({ project: world.demo, verified: false });
  });
});
