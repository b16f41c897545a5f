import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COLLECTION_NAMES } from "../../src/domain/projects/project-document.js";
import { type RunningServer, startServer } from "../../src/index.js";
import { docBlock } from "../helpers/consumer.js";

/**
 * docs/reference/fixtures.md, "Fixtures": the folder it draws names every collection file the loader takes, and its
 * example project, built from the tree's project.json and api-keys.json lines and the shapes of the loyalty data,
 * loads and works from this machine (issue 34: 0.8.0's example key had an ip_allowlist that refused every local
 * call, and the tree left out webhooks.json and tokens.json).
 */
const PAGE = "docs/reference/fixtures.md";
const tree = docBlock(PAGE, "# Fixtures", "");
const shapes = docBlock(PAGE, "# Fixtures", "jsonc");

/** The JSON after a file's name on a line of the tree. */
const treeLine = (file: string) => JSON.parse(new RegExp(`^ +${file} +(.+)$`, "m").exec(tree)?.[1] ?? "null");

/** The shapes block's objects by file: a `// name.json` line, then one object (comments after values dropped). */
function shapesByFile(): Map<string, unknown> {
  const files = new Map<string, unknown>();
  for (const part of shapes.split(/^\/\/ (?=[\w-]+\.json)/m).slice(1)) {
    const [header, ...lines] = part.split("\n");
    const text = lines.map((line) => line.replace(/\s+\/\/ .*$/, "")).join("\n");
    files.set(/^[\w-]+\.json/.exec(header as string)?.[0] as string, JSON.parse(text));
  }
  return files;
}

describe(`${PAGE}, Fixtures`, () => {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-fixtures-page-"));
  let mock: RunningServer | undefined;
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the folder names every collection file the loader takes", () => {
    for (const collection of COLLECTION_NAMES)
      expect(tree).toContain(`${collection.replaceAll("_", "-")}.json`);
  });

  it("its example project loads, and its key assigns a card and earns points from this machine", async () => {
    const shop = join(dir, "shop");
    mkdirSync(shop, { recursive: true });
    writeFileSync(join(shop, "project.json"), JSON.stringify(treeLine("project.json")));
    const keys = treeLine("api-keys.json") as { app_id: string; app_token: string }[];
    writeFileSync(join(shop, "api-keys.json"), JSON.stringify(keys));
    const files = shapesByFile();
    expect([...files.keys()]).toEqual([
      "campaigns.json",
      "vouchers.json",
      "customers.json",
      "event-schemas.json",
      "earning-rules.json",
    ]);
    for (const [file, object] of files) writeFileSync(join(shop, file), JSON.stringify([object]));
    mock = await startServer({ port: 0, fixturesDir: dir });
    const key = keys[0] as { app_id: string; app_token: string };
    const headers = {
      "X-App-Id": key.app_id,
      "X-App-Token": key.app_token,
      "Content-Type": "application/json",
    };
    const card = await fetch(`${mock.url}/v1/loyalties/camp_shop_loyalty/members`, {
      method: "POST",
      headers,
      body: JSON.stringify({ customer: { source_id: "jane@example.com" } }),
    });
    expect(card.status).toBe(200);
    expect(await card.json()).toMatchObject({
      code: "SHOP-AAAA-0001",
      holder_id: "cust_shop000000000000000000001",
    });
    const event = await fetch(`${mock.url}/v1/events`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        event: "user_subscribed",
        customer: { source_id: "jane@example.com" },
        metadata: { plan: "pro" },
      }),
    });
    expect(event.status).toBe(200);
    const voucher = await fetch(`${mock.url}/__mock/projects/shop/vouchers/SHOP-AAAA-0001`);
    expect(((await voucher.json()) as { loyalty_card: unknown }).loyalty_card).toEqual({
      points: 100,
      balance: 100,
    });
  });
});
