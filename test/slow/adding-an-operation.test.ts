import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inWords, OPERATIONS } from "../../src/http/operations/table.js";
import { copyProjectTree, filesOfNewOperation, listedIn } from "../helpers/files.js";
import { childEnv, ROOT } from "../helpers/process.js";

/**
 * An operation is declared once, in its row of the operation table, and everything else that knows operations
 * derives it. This file adds one, a toy `GET /v1/campaigns/{campaignId}` (the vendor's get-campaign, answered
 * with the stored campaign), in a copy of the project, writing only the files docs/internals/adding-an-operation.md
 * lists (the row, its use case, its test, its section of the operations page, its line in the fidelity page), then
 * runs `npm run docs:operations`; and finds the new row in verify's steps, the bench's workloads, the dashboard's
 * activity, the journal's filter, the control API's list, the MCP server's tools and the docs' generated tables,
 * with the copy
 * type-checked and the suites that hold every row green. test/slow/adding-a-collection.test.ts does the same for
 * a collection. In the slow tier: it copies the project, type-checks it and runs a part of its suite.
 */
const PAGE = "docs/internals/adding-an-operation.md";
let copy: string;
let probeDir: string;

const inCopy = (file: string) => join(copy, file);
const readCopy = (file: string) => readFileSync(inCopy(file), "utf8");
function edit(file: string, change: (text: string) => string): void {
  const text = readCopy(file);
  const changed = change(text);
  if (changed === text) throw new Error(`${file}: the edit changed nothing`);
  writeFileSync(inCopy(file), changed);
}
function write(file: string, text: string): void {
  mkdirSync(dirname(inCopy(file)), { recursive: true });
  writeFileSync(inCopy(file), text);
}

/** A command in the copy, without the vendor's contract (as a fresh clone runs): its exit status and output. */
function run(command: string, args: string[], env: Record<string, string> = {}) {
  const ran = spawnSync(command, args, {
    cwd: copy,
    encoding: "utf8",
    env: childEnv({
      CONTRACT_FILE: undefined,
      WEBHOOKS_CONTRACT_FILE: undefined,
      VENDOR_OPERATIONS_FILE: undefined,
      LOYALTY_V2_FILE: undefined,
      CONTRACT_SOURCE_DIR: undefined,
      FUZZ_RUNS: "100",
      ...env,
    }),
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: ran.status, output: `${ran.stdout}${ran.stderr}` };
}

/** The copy's files that differ from the project's, as git in the copy says (new files included). */
function changedFiles(): string[] {
  const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
    cwd: copy,
    encoding: "utf8",
  });
  return status
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(3))
    .sort();
}

const ROW = `  getCampaign: row<RawInput>({
    title: "Get a campaign",
    method: "GET",
    path: "/v1/campaigns/{campaignId}",
    auth: auth(["api", "campaigns"]),
    body: "none",
    run: ({ auth: { project }, input }) => getCampaign(project, String(input.params.campaignId)),
    example: (ids) => ({ params: { campaignId: ids.campaign } }),
    sentence: ({ ok, params, project, refusal }) => {
      const id = params.campaignId ?? "";
      const name = project.campaigns.find(id)?.name ?? id;
      return ok ? \`The app looked up the campaign \${name}\` : \`Looking up the campaign \${id} failed: \${refusal}\`;
    },
  }),
} as const;`;

const USE_CASE = `import type { Project } from "../projects/project.js";

/** GET /v1/campaigns/{campaignId}: the campaign as stored (test/slow/adding-an-operation.test.ts's toy). */
export function getCampaign(project: Project, id: string): unknown {
  return project.campaigns.get(id);
}
`;

const TEST = `import { describe, expect, it } from "vitest";
import { send } from "../helpers/http.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

describe("GET /v1/campaigns/{campaignId}", () => {
  it("GET /v1/campaigns/{campaignId} - the demo's program is 200 with its name", async () => {
    const res = await send(buildWorld().app, { method: "GET", path: "/v1/campaigns/camp_demo_loyalty", headers: DEMO_KEYS });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Demo Loyalty Program");
  });

  it("GET /v1/campaigns/{campaignId} - an unknown campaign is 404", async () => {
    const res = await send(buildWorld().app, { method: "GET", path: "/v1/campaigns/camp_nope", headers: DEMO_KEYS });
    expect(res.status).toBe(404);
    expect(res.body.key).toBe("not_found");
  });
});
`;

/** What the copy's own modules say of the new row, asked in a process of their own. */
const PROBE = (root: string) => `
import { STEPS } from "${root}/src/cli/verify/steps.js";
import { workloads } from "${root}/bench/workloads.js";
import { operationTools } from "${root}/src/cli/mcp/operation-tools.js";
import { startServer } from "${root}/src/index.js";

const objects = {
  loyalty_campaign_id: "camp_sandbox",
  location_id: "loc_sandbox",
  tier_structure_id: "lts_sandbox",
  incentive_ids: ["linc_0"],
  custom_event: { name: "signed_up", metadata: {} },
};
const server = await startServer({ port: 0 });
const headers = { "X-App-Id": "demo-app-id", "X-App-Token": "demo-app-token" };
const called = await fetch(server.url + "/v1/campaigns/camp_demo_loyalty", { headers });
await called.arrayBuffer();
const json = async (path) => (await fetch(server.url + path)).json();
const journal = await json("/__mock/projects/demo/requests?operation=getCampaign");
const activity = await json("/__mock/projects/demo/activity?limit=1");
const operations = await json("/__mock/operations");
await server.close();
const workload = workloads({ tierStructures: 1, incentives: 1 }).find((one) => one.operation === "getCampaign");
console.log(JSON.stringify({
  steps: STEPS.filter((step) => step.operation === "getCampaign").map((step) => ({
    name: step.name,
    writes: step.writes,
    request: step.request(objects, { run: "r", tierPoints: 1 }, "linc_0"),
  })),
  workload: workload && { name: workload.name, consumes: workload.consumes, requests: workload.requests({ token: "t" }) },
  status: called.status,
  journal: journal.requests.map((entry) => [entry.operation, entry.path, entry.status]),
  activity: activity.activity.map((entry) => entry.text),
  operations: operations.operations.map((operation) => operation.name),
  tools: operationTools().map((tool) => tool.name),
}));
`;

describe("an operation declared in one row", { timeout: 600_000 }, () => {
  let written: string[];
  let changed: string[];

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), "loyalty-mock-operation-"));
    probeDir = mkdtempSync(join(tmpdir(), "loyalty-mock-operation-probe-"));
    copyProjectTree(copy);
    symlinkSync(join(ROOT, "node_modules"), inCopy("node_modules"));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: copy, stdio: "ignore" });
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-qm", "the project");

    edit("src/http/operations/table.ts", (text) =>
      text
        .replace("} as const;", ROW)
        .replace(
          'import { issueToken } from "../../domain/auth/tokens.js";',
          'import { issueToken } from "../../domain/auth/tokens.js";\nimport { getCampaign } from "../../domain/campaigns/get-campaign.js";',
        ),
    );
    write("src/domain/campaigns/get-campaign.ts", USE_CASE);
    write("test/api/get-campaign.test.ts", TEST);
    edit("docs/reference/operations.md", (text) =>
      text.replace(
        "\n## Errors\n",
        "\n## Campaigns\n\n<!-- operation: getCampaign -->\n\n`GET /v1/campaigns/{campaignId}` answers the campaign as it is stored.\n\n## Errors\n",
      ),
    );
    edit(
      "docs/fidelity.md",
      (text) => `${text.trimEnd()}\n- **Campaigns.** The campaign is answered as it is stored.\n`,
    );
    written = changedFiles();
    const generated = run("npx", ["tsx", "scripts/operations-docs.ts"]);
    if (generated.status !== 0) throw new Error(`npm run docs:operations failed:\n${generated.output}`);
    changed = changedFiles();
  });

  afterAll(() => {
    rmSync(copy, { recursive: true, force: true });
    rmSync(probeDir, { recursive: true, force: true });
  });

  it("touches the files docs/internals/adding-an-operation.md lists, and no other file of src/", () => {
    const listed = filesOfNewOperation(readFileSync(join(ROOT, PAGE), "utf8"));
    expect(written).toEqual([
      "docs/fidelity.md",
      "docs/reference/operations.md",
      "src/domain/campaigns/get-campaign.ts",
      "src/http/operations/table.ts",
      "test/api/get-campaign.test.ts",
    ]);
    // Each file written is one the page lists, and each file the page lists was written, but the fixtures: the
    // demo holds the campaign the toy is called on.
    expect(written.filter((file) => !listedIn(listed, file))).toEqual([]);
    const unwritten = listed.filter((entry) => !written.some((file) => listedIn([entry], file)));
    expect(unwritten).toEqual(["fixtures/demo/<collection>.json"]);
    // npm run docs:operations writes the tables again, in the pages the page names.
    expect(changed.filter((file) => !written.includes(file))).toEqual([
      "README.md",
      "docs/reference/authentication.md",
    ]);
    const page = readFileSync(join(ROOT, PAGE), "utf8");
    for (const file of ["README.md", "docs/reference/authentication.md"])
      expect(page).toContain(`\`${file}\``);
  });

  it("is in the docs' generated tables, with its credentials and its section", () => {
    expect(readCopy("docs/reference/operations.md")).toContain(
      "| `GET /v1/campaigns/{campaignId}` | Get a campaign | key pair, or `Authorization: Bearer <token>` | `api` or `campaigns` | [Campaigns](#campaigns) |",
    );
    // One more than the table holds: the count is the table's, in words, however many rows it has.
    expect(readCopy("docs/reference/operations.md")).toContain(
      `loyalty-mock emulates ${inWords(OPERATIONS.length + 1)} operations of the service:`,
    );
    expect(readCopy("README.md")).toContain(
      "| `GET /v1/campaigns/{campaignId}`: Get a campaign | complete ([Campaigns](docs/reference/operations.md#campaigns)) |",
    );
    expect(readCopy("docs/reference/authentication.md")).toContain(
      "| `GET /v1/campaigns/{campaignId}` | key pair, or `Authorization: Bearer <token>` | `api` or `campaigns` |",
    );
  });

  it("is in verify's steps, the bench's workloads, the journal's filter, the dashboard's activity, the control API and the MCP tools", () => {
    const probe = join(probeDir, "probe.mts");
    writeFileSync(probe, PROBE(copy));
    const ran = run("npx", ["tsx", probe]);
    expect(ran.status, ran.output).toBe(0);
    const found = JSON.parse(ran.output.trim().split("\n").at(-1) as string);
    expect(found.steps).toEqual([
      {
        name: "getCampaign",
        writes: false,
        request: { method: "GET", path: "/v1/campaigns/camp_sandbox", credentials: "key" },
      },
    ]);
    expect(found.workload).toEqual({
      name: "getCampaign",
      consumes: false,
      requests: [
        {
          method: "GET",
          path: "/v1/campaigns/camp_bench_loyalty",
          headers: { "X-App-Id": "bench-app-id", "X-App-Token": "bench-app-token" },
        },
      ],
    });
    expect(found.status).toBe(200);
    expect(found.journal).toEqual([["getCampaign", "/v1/campaigns/camp_demo_loyalty", 200]]);
    expect(found.activity).toEqual(["The app looked up the campaign Demo Loyalty Program"]);
    expect(found.operations).toContain("getCampaign");
    expect(found.tools).toContain("operation_get_campaign");
  });

  it("type-checks, and the suites that hold every row pass for it", () => {
    const typecheck = run("npx", ["tsc", "-p", "tsconfig.json", "--noEmit"]);
    expect(typecheck.status, typecheck.output).toBe(0);
    const suites = run("npx", [
      "vitest",
      "run",
      "--reporter=verbose",
      "test/api/get-campaign.test.ts",
      "test/api/operation-table.test.ts",
      "test/api/auth-matrix.test.ts",
      "test/control/rate-limit-default.test.ts",
      "test/control/operations.test.ts",
      "test/http/cors.test.ts",
      "test/cli/verify.test.ts",
      "test/cli/mcp-tools.test.ts",
      "test/docs/operation-docs.test.ts",
      "test/docs/operation-count.test.ts",
      "test/docs/links.test.ts",
      "test/docs/source-pointers.test.ts",
      "test/structure/layers.test.ts",
    ]);
    expect(suites.status, suites.output.slice(-6000)).toBe(0);
    // The operations' generated input runs in the slow tier only (vitest.config.ts leaves it out), so by its config.
    const fuzz = run("npx", [
      "vitest",
      "run",
      "--config",
      "vitest.slow.config.ts",
      "--reporter=verbose",
      "test/fuzz/operations.test.ts",
    ]);
    expect(fuzz.status, fuzz.output.slice(-6000)).toBe(0);
    expect(fuzz.output).toMatch(/getCampaign: reaches a success within 60 cases/);
  });
});
