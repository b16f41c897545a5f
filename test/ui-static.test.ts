import request from "supertest";
import { describe, expect, it } from "vitest";
import { buildWorld } from "./helpers/world.js";

describe("GET /__mock/ui/", () => {
  it("serves the page without the admin token, with a policy allowing only this server's files", async () => {
    const { app } = buildWorld({ adminToken: "s3cret" });
    const page = await request(app).get("/__mock/ui/");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.text).toContain('<script type="module" src="app.js"></script>');
    expect(page.headers["content-security-policy"]).toContain("default-src 'self'");
    const script = await request(app).get("/__mock/ui/app.js");
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toMatch(/^text\/javascript/);
    const bare = await request(app).get("/__mock/ui");
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe("/__mock/ui/");
  });

  it("answers an unknown file with the service's 404, not the control API's 401", async () => {
    const { app } = buildWorld({ adminToken: "s3cret" });
    const res = await request(app).get("/__mock/ui/nope.js");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      key: "not_found",
      details: "Cannot GET /__mock/ui/nope.js: no such endpoint",
    });
  });
});
