import { describe, expect, it } from "vitest";
import { send } from "../helpers/http.js";
import { demoToken, expectRefusedUnchanged } from "../helpers/v2.js";
import { buildWorld, DEMO_KEYS, OTHER_KEYS, type World } from "../helpers/world.js";

/**
 * Authentication of the two v2 operations over HTTP (FIDELITY.md, "Authentication"): strict by default (bearer
 * token and key pair, one project), `either` through V2_AUTH_MODE or the project's setting. Every refusal is
 * shown to change nothing; every acceptance to really do the work.
 */

interface Operation {
  name: string;
  call: (world: World, headers: Record<string, string>, n: number) => ReturnType<typeof send>;
  /** Did the n-th call of this operation take effect in the store? */
  done: (world: World, n: number) => boolean;
}

const DELETABLE = [
  "linc_d0000000000000101",
  "linc_d0000000000000102",
  "linc_d0000000000000103",
  "linc_d0000000000000104",
];

const OPERATIONS: Operation[] = [
  {
    name: "POST /v2/loyalties/tier-structures/{id}/tiers",
    call: (world, headers, n) =>
      send(world.app, {
        method: "POST",
        path: "/v2/loyalties/tier-structures/lts_d0000000000000001/tiers",
        headers,
        body: {
          name: `Auth ${n}`,
          qualification_rules: {
            type: "POINTS",
            min_value: 10_000 * (n + 1),
            max_value: 10_000 * (n + 1) + 9_999,
          },
        },
      }),
    done: (world, n) =>
      world.demo.tierStructures.get("lts_d0000000000000001").tiers.some((tier) => tier.name === `Auth ${n}`),
  },
  {
    name: "DELETE /v2/loyalties/incentives/{id}",
    call: (world, headers, n) =>
      send(world.app, { method: "DELETE", path: `/v2/loyalties/incentives/${DELETABLE[n]}`, headers }),
    done: (world, n) => world.demo.incentives.get(DELETABLE[n] ?? "").status === "DELETED",
  },
];

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

for (const op of OPERATIONS) {
  describe(`${op.name} - strict mode (the default)`, () => {
    const refused = async (
      world: World,
      headers: Record<string, string>,
      status: number,
      details: string | RegExp,
    ) => {
      const key = status === 401 ? "unauthorized" : "forbidden";
      await expectRefusedUnchanged(world, () => op.call(world, headers, 0), status, { key, details });
      expect(op.done(world, 0)).toBe(false);
    };

    it("the bearer token and the key pair together are accepted", async () => {
      const world = buildWorld();
      const res = await op.call(world, { ...DEMO_KEYS, ...bearer(await demoToken(world, "loyalties")) }, 0);
      expect(res.status).toBe(200);
      expect(op.done(world, 0)).toBe(true);
    });

    it("no credentials is 401 asking for both", async () => {
      await refused(
        buildWorld(),
        {},
        401,
        "Missing credentials: v2 operations need 'Authorization: Bearer <token>' and the X-App-Id and X-App-Token headers",
      );
    });

    it("the key pair alone is 401 Missing Authorization header", async () => {
      await refused(
        buildWorld(),
        DEMO_KEYS,
        401,
        "Missing Authorization header: v2 operations need 'Bearer <token>' and the key pair",
      );
    });

    it("the token alone is 401 Missing X-App-Id and X-App-Token headers", async () => {
      const world = buildWorld();
      await refused(
        world,
        bearer(await demoToken(world)),
        401,
        "Missing X-App-Id and X-App-Token headers: v2 operations need them with the token",
      );
    });

    it("a token of another project with the demo key pair is 401", async () => {
      const world = buildWorld();
      const token = await demoToken(world, "api", OTHER_KEYS);
      await refused(
        world,
        { ...DEMO_KEYS, ...bearer(token) },
        401,
        "The access token and the X-App-Id belong to different projects",
      );
    });

    it("an unknown token, an expired token and a wrong secret are 401", async () => {
      const world = buildWorld();
      await refused(world, { ...DEMO_KEYS, ...bearer("not-a-token") }, 401, "Invalid access token");
      const token = await demoToken(world);
      world.clock.advance(900);
      await refused(world, { ...DEMO_KEYS, ...bearer(token) }, 401, "The access token has expired");
      const fresh = await demoToken(world);
      await refused(
        world,
        { ...DEMO_KEYS, "X-App-Token": "wrong", ...bearer(fresh) },
        401,
        "Invalid X-App-Id or X-App-Token",
      );
    });

    it("a token whose scope lacks api and loyalties is 403 forbidden", async () => {
      const world = buildWorld();
      await refused(
        world,
        { ...DEMO_KEYS, ...bearer(await demoToken(world, "locations events")) },
        403,
        /needs api or loyalties/,
      );
    });

    it("credentials are checked before the body and the resource", async () => {
      const world = buildWorld();
      const res = await send(world.app, {
        method: "POST",
        path: "/v2/loyalties/tier-structures/lts_nope/tiers",
        headers: DEMO_KEYS,
        body: { bogus: true },
      });
      expect(res.status).toBe(401);
      const del = await send(world.app, {
        method: "DELETE",
        path: "/v2/loyalties/incentives/NOT-AN-ID",
        headers: {},
      });
      expect(del.status).toBe(401);
    });
  });

  describe(`${op.name} - 'either' mode`, () => {
    it("V2_AUTH_MODE=either accepts the key pair alone and the token alone", async () => {
      const world = buildWorld({ defaults: { v2AuthMode: "either" } });
      expect((await op.call(world, DEMO_KEYS, 0)).status).toBe(200);
      expect(op.done(world, 0)).toBe(true);
      expect((await op.call(world, bearer(await demoToken(world, "loyalties")), 1)).status).toBe(200);
      expect(op.done(world, 1)).toBe(true);
    });

    it("still refuses no credentials, bad credentials and a token of the wrong scope", async () => {
      const world = buildWorld({ defaults: { v2AuthMode: "either" } });
      await expectRefusedUnchanged(world, () => op.call(world, {}, 0), 401, {
        key: "unauthorized",
        details:
          "Missing credentials: send X-App-Id and X-App-Token headers, or an OAuth token in the Authorization header",
      });
      await expectRefusedUnchanged(
        world,
        () => op.call(world, { ...DEMO_KEYS, "X-App-Token": "x" }, 0),
        401,
        {
          details: "Invalid X-App-Id or X-App-Token",
        },
      );
      const token = await demoToken(world, "locations");
      await expectRefusedUnchanged(world, () => op.call(world, bearer(token), 0), 403, { key: "forbidden" });
    });

    it("a project's own v2_auth_mode setting relaxes it for that project only", async () => {
      const world = buildWorld();
      world.demo.settings = { ...world.demo.settings, v2_auth_mode: "either" };
      expect((await op.call(world, DEMO_KEYS, 0)).status).toBe(200);
      const other = buildWorld();
      other.demo.settings = { ...other.demo.settings, v2_auth_mode: "either" };
      const res = await send(other.app, {
        method: "DELETE",
        path: "/v2/loyalties/incentives/linc_e0000000000000001",
        headers: OTHER_KEYS,
      });
      expect(res.status).toBe(401);
    });
  });
}
