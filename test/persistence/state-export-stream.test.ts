import request from "supertest";
import { describe, expect, it } from "vitest";
import { issueToken } from "../../src/domain/auth/tokens.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { exportSlices } from "../../src/http/control/state-stream.js";
import { buildWorld } from "../helpers/world.js";

describe("the streamed state export", () => {
  it("writes, slice by slice, exactly the text of the whole document", () => {
    const world = buildWorld();
    issueToken(world.registry, world.demo, world.demo.apiKeys.get("demo-app-id"), {
      grant_type: "client_credentials",
      scope: "api",
    });
    const slices = [...exportSlices(world.demo, 4096)];
    expect(slices.length).toBeGreaterThan(50);
    expect(slices.every((slice) => slice.length < 4096 + 2048)).toBe(true);
    expect(slices.join("")).toBe(JSON.stringify(exportProject(world.demo)));
    expect([...exportSlices(world.other)].join("")).toBe(JSON.stringify(exportProject(world.other)));
  });

  it("answers GET with that text, as JSON", async () => {
    const world = buildWorld();
    const res = await request(world.app).get("/__mock/projects/demo/state");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.text).toBe(JSON.stringify(exportProject(world.demo)));
  });
});
