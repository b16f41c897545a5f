import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { VoucherifyServerSide } from "@voucherify/sdk";
import type { StartedTestContainer } from "testcontainers";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process.js";
import { docBlock, IMAGE, LABEL } from "./docker.js";

/**
 * Issue 25: Testcontainers for Node, as docs/guide/docker.md shows it (issue 34: its very block), then the official SDK against the
 * container and the journal read back. The reaper (Ryuk) is off (TESTCONTAINERS_RYUK_DISABLED, set in
 * vitest.container.config.ts): its image cannot be pulled on machines that reach no container registry, so this
 * file stops its container itself, and the run's label lets removeAll find it after a crash.
 */
let mock: StartedTestContainer | undefined;
let file: string | undefined;
afterAll(async () => {
  await mock?.stop();
  if (file) rmSync(file, { force: true });
});

/**
 * The Node block of docs/guide/docker.md, "Testcontainers", as written: only the image's name is this run's (and
 * labelled, so that removeAll finds it), and the place where "the tests" go hands the container over. Written
 * beside this file, so that its import of "testcontainers" resolves as in an application.
 */
async function startedAsThePageShows(): Promise<{ mock: StartedTestContainer; baseUrl: string }> {
  const block = docBlock("docs/guide/docker.md", "## Testcontainers", "ts");
  expect(block).toContain('new GenericContainer("loyalty-mock")');
  expect(block).toMatch(/^\/\/ \.\.\. the tests.*\nawait mock\.stop\(\);\n$/m);
  const [labelKey, labelValue] = LABEL.split("=") as [string, string];
  const code = block
    .replace(
      'new GenericContainer("loyalty-mock")',
      `new GenericContainer(${JSON.stringify(IMAGE)}).withLabels(${JSON.stringify({ [labelKey]: labelValue })})`,
    )
    .replace(/^await mock\.stop\(\);\n$/m, "export { mock, baseUrl };\n");
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  file = join(ROOT, "test", "container", `.docker-guide-${process.pid}.mjs`);
  writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)) as { mock: StartedTestContainer; baseUrl: string };
}

describe("Testcontainers for Node", () => {
  it("starts the image as docs/guide/docker.md shows, serves the official SDK and keeps the journal", async () => {
    const started = await startedAsThePageShows();
    mock = started.mock;
    const { baseUrl } = started;
    const client = VoucherifyServerSide({
      applicationId: "demo-app-id",
      secretKey: "demo-app-token",
      apiUrl: baseUrl,
    });
    const card = await client.loyalties.createMember("camp_demo_loyalty", {
      customer: { source_id: "container-user@example.com", name: "Container User" },
    });
    expect(card).toMatchObject({ campaign_id: "camp_demo_loyalty", type: "LOYALTY_CARD", object: "voucher" });
    const journal = (await (await fetch(`${baseUrl}/__mock/projects/demo/requests`)).json()) as {
      requests: { method: string; path: string; status: number }[];
    };
    expect(journal.requests).toContainEqual(
      expect.objectContaining({
        method: "POST",
        path: "/v1/loyalties/camp_demo_loyalty/members",
        status: 200,
      }),
    );
  });
});
