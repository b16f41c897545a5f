import { describe, expect, it } from "vitest";
import { attribute } from "../../src/domain/auth/attribution.js";
import { credentialsFromHeaders } from "../../src/http/operations/credentials.js";
import { buildWorld } from "../helpers/world.js";

describe("attribution", () => {
  it("by app id (valid or not), then by an issued token; nothing for strangers", () => {
    const { registry, demo } = buildWorld();
    expect(attribute(registry, { appId: "demo-app-id", appToken: "demo-app-token" })).toEqual({
      project: demo,
      verified: true,
    });
    expect(attribute(registry, { appId: "demo-app-id", appToken: "nope" })).toEqual({
      project: demo,
      verified: false,
    });
    expect(attribute(registry, { appId: "demo-app-id" })).toEqual({ project: demo, verified: false });
    expect(attribute(registry, { appId: "who", appToken: "demo-app-token" })).toBeUndefined();
    expect(attribute(registry, credentialsFromHeaders({ authorization: "Bearer nope" }))).toBeUndefined();
    expect(attribute(registry, {})).toBeUndefined();
  });
});
