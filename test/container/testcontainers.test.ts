import { VoucherifyServerSide } from "@voucherify/sdk";
import { GenericContainer, type StartedTestContainer, Wait } from "testcontainers";
import { afterAll, describe, expect, it } from "vitest";
import { IMAGE, LABEL } from "./docker.js";

/**
 * Issue 25: Testcontainers for Node, as docs/guide/docker.md shows it, then the official SDK against the
 * container and the journal read back. The reaper (Ryuk) is off (TESTCONTAINERS_RYUK_DISABLED, set in
 * vitest.container.config.ts): its image cannot be pulled on machines that reach no container registry, so this
 * file stops its container itself, and the run's label lets removeAll find it after a crash.
 */
let mock: StartedTestContainer | undefined;
afterAll(async () => {
  await mock?.stop();
});

describe("Testcontainers for Node", () => {
  it("starts the image, waits on /__mock/health, serves the official SDK and keeps the journal", async () => {
    const [labelKey, labelValue] = LABEL.split("=") as [string, string];
    mock = await new GenericContainer(IMAGE)
      .withExposedPorts(3000)
      .withLabels({ [labelKey]: labelValue })
      .withWaitStrategy(Wait.forHttp("/__mock/health", 3000))
      .start();
    const baseUrl = `http://${mock.getHost()}:${mock.getMappedPort(3000)}`;
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
