import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/http/operations/table.js";
import { control } from "../helpers/control.js";
import { buildWorld } from "../helpers/world.js";

const UI = new URL("../../ui/", import.meta.url);

describe("GET /__mock/operations", () => {
  it("lists the operations of the routers' table, in its order, as fault rules and the journal spell them", async () => {
    const { app } = buildWorld();
    const res = await control(app, { method: "GET", path: "/__mock/operations" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "list", data_ref: "operations", total: OPERATIONS.length });
    expect(
      res.body.operations.map(({ name, method, path }: Record<string, string>) => [name, method, path]),
    ).toEqual(OPERATIONS.map(({ name, method, path }) => [name, method, path]));
    expect(res.body.operations[0]).toEqual({
      name: "generateToken",
      title: "OAuth token",
      method: "POST",
      path: "/v1/oauth/token",
    });
  });

  it("the dashboard keeps no list of its own: no operation's path is written in ui/", () => {
    const files = readdirSync(UI, { recursive: true, encoding: "utf8" }).filter((name) =>
      name.endsWith(".js"),
    );
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(new URL(file, UI), "utf8");
      for (const { path } of OPERATIONS) expect(text, `ui/${file}`).not.toContain(path);
    }
  });
});
