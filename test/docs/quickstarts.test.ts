import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTROL_ROUTES } from "../../src/http/control/table.js";
import { OPERATIONS } from "../../src/http/operations/table.js";
import { type RunningServer, startServer } from "../../src/index.js";
import { blocksOf } from "../helpers/doc-blocks.js";
import { ROOT } from "../helpers/process.js";

/**
 * The quickstarts for other languages (docs/guide/python.md, java.md, go.md), checked for what they call: every
 * path they send a request to is a route of the control API or one of the six operations, the start line they
 * wait for is the one the server prints, every field they read from an answer is in that answer, and every image
 * they run is one they say how to build. The Python page's server is the pytest plugin's (issue 48), whose sources
 * are read with the page's code for what it waits for, runs and reads. The pages run as written in the slow tier
 * (Python, from the npm package) and the container tier (all three over the image, each where its toolchain is
 * installed): test/slow/pytest-plugin.test.ts, test/container/quickstarts.test.ts.
 */
const PAGES = ["docs/guide/python.md", "docs/guide/java.md", "docs/guide/go.md"];
const LANGUAGE: Record<string, string> = {
  "docs/guide/python.md": "python",
  "docs/guide/java.md": "java",
  "docs/guide/go.md": "go",
};

const PLUGIN_SOURCES = join(ROOT, "python", "pytest-loyalty-mock", "src", "pytest_loyalty_mock");
const pageCode = (page: string) =>
  blocksOf(page)
    .filter((block) => block.lang === LANGUAGE[page])
    .map((block) => block.text)
    .join("\n");
/** The page's code, and for Python the plugin's that starts the server and reads its answers. */
const code = (page: string) =>
  page === "docs/guide/python.md"
    ? [
        pageCode(page),
        ...["server.py", "control.py"].map((file) => readFileSync(join(PLUGIN_SOURCES, file), "utf8")),
      ].join("\n")
    : pageCode(page);

/** A path written in code with its variable parts as {x}: `"/__mock/projects/" + p.ID + "/clock"`, f-strings. */
function pathsOf(source: string): string[] {
  const joined = source
    .replace(/\{[^{}\n]*\}/g, "{x}") // Python f-strings' fields
    .replace(/(["`])\s*\+\s*[\w.()]+\s*\+\s*(["`])/g, "{x}") // "a" + expr + "b"
    .replace(/(["`])\s*\+\s*[\w.()]+/g, "{x}$1"); // "a" + expr
  return [...joined.matchAll(/\/(?:__mock|v1|v2)\/[^"'`\s)?]*/g)].map((match) => match[0]);
}

const asPattern = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`);
const ROUTES = [
  ...CONTROL_ROUTES.map((route) => asPattern(`/__mock${route.path}`)),
  ...OPERATIONS.map((operation) => asPattern(operation.path)),
];

describe("the quickstarts call what exists", () => {
  let mock: RunningServer;
  const answered = new Set<string>();
  beforeAll(async () => {
    mock = await startServer({ port: 0 });
    // The answers the quickstarts read fields from: a new project, a token, a card, a refusal.
    const post = async (path: string, body: string, headers: Record<string, string>) =>
      (await (await fetch(`${mock.url}${path}`, { method: "POST", body, headers })).json()) as object;
    const project = (await post("/__mock/projects", '{"template":"demo"}', {
      "Content-Type": "application/json",
    })) as { project_id: string; app_id: string; app_token: string };
    const keys = { "X-App-Id": project.app_id, "X-App-Token": project.app_token };
    const token = await post("/v1/oauth/token", "grant_type=client_credentials&scope=api", {
      ...keys,
      "Content-Type": "application/x-www-form-urlencoded",
    });
    const card = await post("/v1/loyalties/camp_demo_loyalty/members", '{"customer":{"source_id":"a@b.c"}}', {
      ...keys,
      "Content-Type": "application/json",
    });
    const refused = (await (await fetch(`${mock.url}/v1/locations/loc_demo_circle`)).json()) as object;
    const journal = (await (
      await fetch(`${mock.url}/__mock/projects/${project.project_id}/requests`)
    ).json()) as {
      requests: object[];
    };
    for (const answer of [project, token, card, refused, ...journal.requests])
      for (const key of Object.keys(answer)) answered.add(key);
  });
  afterAll(() => mock.close());

  for (const page of PAGES) {
    it(`${page}: every path it calls is a control route or an operation`, () => {
      const paths = pathsOf(pageCode(page));
      expect(paths.length).toBeGreaterThan(3);
      expect(paths.filter((path) => !ROUTES.some((route) => route.test(path)))).toEqual([]);
    });

    it(`${page}: it waits for the start line the server prints, and runs the image with settings that exist`, () => {
      const source = code(page);
      const pattern = /loyalty-mock listening on \(http:\/\/\\+S\+\)/.exec(source)?.[0];
      expect(pattern, "the start line's pattern").toBeDefined();
      const line = `loyalty-mock listening on ${mock.url}`;
      expect(new RegExp((pattern as string).replaceAll("\\\\", "\\")).exec(line)?.[1]).toBe(mock.url);
      // The image's port is set by its setting, and its docker run publishes that port on loopback.
      expect(source).toMatch(/LOYALTY_MOCK_PORT=/);
      expect(source).toMatch(/"docker", "run", "--rm", "-p"/);
    });

    it(`${page}: every field it reads from an answer is in that answer`, () => {
      const source = code(page);
      const fields = [
        ...source.matchAll(/json:"(\w+)"/g), // Go
        ...source.matchAll(/field\([^,]+, "(\w+)"\)/g), // Java
        ...source.matchAll(/\w+\[["'](\w+)["']\]/g), // Python
      ]
        .map((match) => match[1] as string)
        // The Python fixture's own dictionary, which it builds itself.
        .filter((name) => !["url", "id", "headers"].includes(name));
      expect(fields.length).toBeGreaterThan(2);
      expect(fields.filter((name) => !answered.has(name))).toEqual([]);
    });
  }

  it("every image a quickstart runs is one it says how to build (issue 47: two ran a tag no page built)", () => {
    const docker = readFileSync(join(ROOT, "docs/guide/docker.md"), "utf8");
    for (const page of PAGES) {
      const text = readFileSync(join(ROOT, page), "utf8");
      const run = [
        ...text.matchAll(/(?:-DloyaltyMock\.image=|LOYALTY_IMAGE=|--loyalty-mock-image )([\w./:-]+)/g),
      ];
      const built = [...`${text}\n${docker}`.matchAll(/docker build (?:[^`\n]* )?-t ([\w./:-]+)/g)];
      expect(run.length, page).toBeGreaterThan(0);
      const names = new Set(built.map((match) => match[1]));
      expect(
        run.map((match) => match[1]).filter((image) => !names.has(image)),
        page,
      ).toEqual([]);
    }
  });

  it("docs/guide/python.md, 1. Install: says where the tarball it installs comes from (issue 47)", () => {
    const install = /\n## 1\. Install\n([\s\S]*?)\n## /.exec(
      readFileSync(join(ROOT, "docs/guide/python.md"), "utf8"),
    )?.[1];
    const tarball = /npm install --save-dev \.\/(loyalty-mock-[\d.]+\.tgz)/.exec(install ?? "")?.[1];
    expect(tarball).toBeDefined();
    expect(install).toMatch(new RegExp(`\`npm pack\` in a clone of loyalty-mock writes\\s+\`${tarball}\``));
  });

  it("docs/guide/go.md, 2. `loyalty_test.go` and 3. Run it: every block is Go in package app, or its run lines", () => {
    const blocks = blocksOf("docs/guide/go.md");
    for (const block of blocks.filter((candidate) => candidate.lang === "go"))
      expect(block.text).toMatch(/^package app\n/);
    const run = blocks.find((block) => block.heading === "## 3. Run it");
    expect(run?.text).toMatch(/^go test \.\/\.\.\./);
  });
});
