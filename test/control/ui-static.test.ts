import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { CHART_JS_DIR, LOSSLESS_JSON_DIR, UI_DIR } from "../../src/http/ui.js";
import { buildWorld } from "../helpers/world.js";

/** Every file under ui/, as a path relative to it. */
function uiFiles(dir = UI_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? uiFiles(join(dir, entry.name)) : [relative(UI_DIR, join(dir, entry.name))],
  );
}

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

  it("serves every file the page names, and the page names every module it has", async () => {
    const { app } = buildWorld();
    const html = readFileSync(join(UI_DIR, "index.html"), "utf8");
    // Chart.js's build is the package's own, served from vendor/ (below), not a file of ui/.
    const named = [...html.matchAll(/(?:src|href)="([^"#]+)"/g)]
      .map((m) => m[1] as string)
      .filter((name) => !name.startsWith("vendor/"));
    const modules = uiFiles().filter((file) => file.endsWith(".js"));
    // Preloaded all at once: a module left out would cost the first paint a round trip per level of imports.
    expect(named.filter((name) => name.endsWith(".js")).sort()).toEqual(modules.sort());
    for (const file of uiFiles()) {
      const res = await request(app).get(`/__mock/ui/${file}`);
      expect(res.status, file).toBe(200);
      const imports = [...readFileSync(join(UI_DIR, file), "utf8").matchAll(/from "(\.{1,2}\/[^"]+)"/g)];
      for (const [, target] of imports)
        expect(uiFiles(), `${file} imports ${target}`).toContain(join(file, "..", target as string));
    }
    expect(named.filter((name) => !name.endsWith(".js"))).toEqual(["style.css", "views/views.css"]);
  });

  it("serves Chart.js's build for the charts, as the package ships it, and nothing else of the package", async () => {
    const { app } = buildWorld({ adminToken: "s3cret" });
    const html = readFileSync(join(UI_DIR, "index.html"), "utf8");
    expect(html).toContain('<script src="vendor/chart.js/chart.umd.min.js" defer></script>');
    const res = await request(app).get("/__mock/ui/vendor/chart.js/chart.umd.min.js");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.text).toBe(readFileSync(join(CHART_JS_DIR, "chart.umd.min.js"), "utf8"));
    for (const file of ["chart.js", "chart.umd.min.js.map", "../package.json", ""]) {
      const other = await request(app).get(`/__mock/ui/vendor/chart.js/${file}`);
      expect(other.status, file).toBe(404);
    }
  });

  it("serves lossless-json's modules for ui/json.js, every one its entry imports, and nothing else of the package", async () => {
    const { app } = buildWorld({ adminToken: "s3cret" });
    const seen = new Set<string>();
    const queue = ["index.js"];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (seen.has(file)) continue;
      seen.add(file);
      const res = await request(app).get(`/__mock/ui/vendor/lossless-json/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers["content-type"], file).toMatch(/^text\/javascript/);
      expect(res.headers["content-security-policy"], file).toContain("default-src 'self'");
      expect(res.text).toBe(readFileSync(join(LOSSLESS_JSON_DIR, file), "utf8"));
      for (const [, target] of res.text.matchAll(/from '\.\/([^']+)'/g)) queue.push(target as string);
    }
    expect([...seen]).toContain("parse.js");
    for (const file of ["parse.test.js", "parse.js.map", "package.json", "", "../package.json"]) {
      const res = await request(app).get(`/__mock/ui/vendor/lossless-json/${file}`);
      expect(res.status, file).toBe(404);
      expect(res.body.key, file).toBe("not_found");
    }
  });
});
