import { describe, expect, it } from "vitest";
import { control } from "../helpers/control.js";
import { buildWorld } from "../helpers/world.js";

describe("GET /__mock/health - control (issue 29)", () => {
  it('is "open" when the server has no admin token', async () => {
    const { app } = buildWorld();
    const res = await control(app, { method: "GET", path: "/__mock/health" });
    expect(res.status).toBe(200);
    expect(res.body.control).toBe("open");
  });

  it('is "token" when every control call must send X-Mock-Admin-Token', async () => {
    const { app } = buildWorld({ adminToken: "s3cret-admin" });
    const res = await control(app, {
      method: "GET",
      path: "/__mock/health",
      headers: { "X-Mock-Admin-Token": "s3cret-admin" },
    });
    expect(res.status).toBe(200);
    expect(res.body.control).toBe("token");
  });
});
