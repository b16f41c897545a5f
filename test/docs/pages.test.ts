import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../src/cli/command-line.js";
import { OTHER_VARIABLES } from "../../src/config/other-variables.js";
import { SETTINGS } from "../../src/config/settings.js";
import { rowsOf, variableOf } from "../../src/config/settings-table.js";
import type { StartOptions } from "../../src/config/start-options.js";
import { CONTROL_ROUTES } from "../../src/http/control/table.js";
import { VIEWS } from "../../src/http/control/views.js";
import { SPEED_TRICKS } from "../../src/http/fast/index.js";
import { blocksOf, PAGES } from "../helpers/doc-blocks.js";
import { commandsOf } from "../helpers/doc-shell.js";
import { filesUnder } from "../helpers/files.js";
import { ROOT } from "../helpers/process.js";

/**
 * What the pages may say, beyond their blocks (test/docs/doc-blocks.test.ts): names that exist, figures read from
 * where they are measured, user guides that keep to what a user does, and the facts issue 34 found wrong on 0.8.0.
 */
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

const markdownFiles = (dir: string) => filesUnder(join(ROOT, dir), ".md").map((path) => relative(ROOT, path));

/** Every page a user or a contributor reads; the CHANGELOG is history and keeps the names of its time. */
const ALL_PAGES = ["README.md", "CONTRIBUTING.md", ...markdownFiles("docs")];
const GUIDES = markdownFiles("docs/guide");
const USER_PAGES = ["README.md", ...GUIDES];

/** The section of a page under a heading, to the next heading of the same level or higher. */
function section(text: string, heading: string): string {
  const start = text.startsWith(`${heading}\n`) ? 0 : text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`no "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const rest = text.slice(start + heading.length + 1);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  return end === -1 ? rest : rest.slice(0, end);
}

describe("every setting a page names exists", () => {
  const variables = new Set(rowsOf(SETTINGS).map(([, row]) => variableOf(row)));
  /** Variables that are not settings of the server, each with the place that reads it. */
  const OTHERS: Record<string, string> = {
    LOYALTY_MOCK_VERIFY_APP_ID: "src/config/other-variables.ts",
    LOYALTY_MOCK_VERIFY_APP_TOKEN: "src/config/other-variables.ts",
    LOYALTY_MOCK_VERIFY_MOCK_APP_ID: "src/config/other-variables.ts",
    LOYALTY_MOCK_VERIFY_MOCK_APP_TOKEN: "src/config/other-variables.ts",
    LOYALTY_MOCK_PLAY_APP_ID: "src/config/other-variables.ts",
    LOYALTY_MOCK_PLAY_APP_TOKEN: "src/config/other-variables.ts",
    LOYALTY_MOCK_IMAGE: "test/container/docker.ts",
    LOYALTY_MOCK_HOST_PORT: "docs/examples/compose.yaml",
    LOYALTY_MOCK_REQUIRE_CONTRACT: "test/helpers/contract-files.ts",
  };
  /** Base names a page may write bare: an application's own variables, which the mock never reads. */
  const APPLICATIONS = new Set(["PORT", "HOST", "LOG_LEVEL"]);

  it("each name another place reads is read there, and the server knows it as no typo (issue 47)", () => {
    for (const [name, file] of Object.entries(OTHERS)) expect(read(file), name).toContain(name);
    expect(new Set(Object.keys(OTHERS))).toEqual(OTHER_VARIABLES);
  });

  for (const page of ALL_PAGES)
    it(`${page}: every LOYALTY_MOCK_ variable is a setting, and no setting is named without its prefix`, () => {
      const text = read(page);
      const unknown = [...text.matchAll(/LOYALTY_MOCK_[A-Z0-9_]+/g)]
        .map((match) => match[0])
        .filter((name) => !variables.has(name) && OTHERS[name] === undefined)
        // The warning a typo gets, shown as an example of one.
        .filter((name) => !text.includes(`${name} is not a setting; ignored`));
      expect(unknown).toEqual([]);
      // The internals pages name the table's base names on purpose; the settings page's history names the old ones.
      if (page.startsWith("docs/internals/")) return;
      const history = page === "docs/reference/settings.md" ? section(text, "## Names before 0.5.0") : "";
      const bare = rowsOf(SETTINGS)
        .map(([, row]) => row.env)
        .concat("MOCK_ADMIN_TOKEN")
        .filter((name) => !APPLICATIONS.has(name))
        .filter((name) => new RegExp(`(?<![A-Z0-9_])${name}\\b`).test(text.replace(history, "")));
      expect(bare).toEqual([]);
    });
});

/** Every option of StartOptions, checked both ways by the type checker: a name that is not one does not compile. */
const START_OPTIONS = [
  "host",
  "port",
  "fixturesDir",
  "documents",
  "stateFile",
  "stateSync",
  "stateSaveIntervalMs",
  "stateCompactBytes",
  "logger",
  "clock",
  "seed",
  "freezeClock",
  "bodyLimit",
  "tokenGraceSeconds",
  "tokenLimit",
  "rateLimitPerMinute",
  "v2AuthMode",
  "trustProxy",
  "corsOrigins",
  "adminToken",
  "journalSize",
  "drainTimeoutMs",
  "connectionLimits",
  "inputLimits",
  "caps",
  "webhookTimeoutMs",
  "webhookQueueLimit",
  "webhookOutboxSize",
  "webhookHosts",
  "speedTricks",
] as const satisfies readonly (keyof StartOptions)[];
type Unlisted = Exclude<keyof StartOptions, (typeof START_OPTIONS)[number]>;
const everyOptionListed: [Unlisted] extends [never] ? true : Unlisted = true;

describe("the library's options, as the pages name them", () => {
  it("docs/guide/library.md lists every option of startServer, and nothing else, in its Options paragraph", () => {
    expect(everyOptionListed).toBe(true);
    const paragraph = /\nOptions: ([\s\S]*?)\n\n/.exec(read("docs/guide/library.md"))?.[1] ?? "";
    // An option is a code span at the start of its mention; values inside parentheses are not options.
    const outside = paragraph.replace(/\([^()]*(\([^()]*\)[^()]*)*\)/g, "");
    const named = [...outside.matchAll(/`([a-zA-Z][a-zA-Z0-9]*)`/g)].map((match) => match[1]);
    expect([...new Set(named)].sort()).toEqual([...START_OPTIONS].sort());
  });

  it("docs/reference/settings.md's library column names options of startServer only (issue 34)", () => {
    const groups = { connectionLimits: "", inputLimits: "", caps: "" };
    const cells = read("docs/reference/settings.md")
      .split("\n")
      .filter((line) => line.startsWith("| `LOYALTY_MOCK_"))
      .map((line) => line.split(" | ")[3] as string);
    for (const cell of cells) {
      const option = /^`([\w.]+)`$/.exec(cell)?.[1];
      if (option === undefined) expect(cell).toMatch(/^none: the bin's/);
      else expect(START_OPTIONS as readonly string[]).toContain(option.split(".")[0]);
      if (option?.includes(".")) expect(Object.keys(groups)).toContain(option.split(".")[0]);
    }
    // The bin's own rows (the log level, exit with the launcher, the health file): every row no option fills.
    const binOnly = Object.keys(SETTINGS).filter(
      (name) => !(START_OPTIONS as readonly string[]).includes(name.split(".")[0] as string),
    );
    expect(binOnly).toEqual(["logLevel", "exitWithParent", "healthFile"]);
    expect(cells.filter((cell) => cell.startsWith("none"))).toHaveLength(binOnly.length);
  });

  it("the speed tricks a page lists are the ones there are", () => {
    const listed = /`speedTricks` \(each speed trick, ([^;]*?), on unless/.exec(
      read("docs/guide/library.md"),
    )?.[1];
    expect([...(listed ?? "").matchAll(/`(\w+)`/g)].map((match) => match[1])).toEqual([...SPEED_TRICKS]);
  });
});

describe("figures quoted from the performance page are read from it", () => {
  // A quote links to the section of docs/performance.md it comes from; each number in the link's text must be there.
  for (const page of ALL_PAGES.filter((candidate) => candidate !== "docs/performance.md"))
    it(`${page}: every figure it quotes is in the section it links to`, () => {
      const text = read(page);
      const performance = read("docs/performance.md").replaceAll(",", "");
      const problems: string[] = [];
      for (const [, label, anchor] of text.matchAll(
        /\[([^\]]*\d[^\]]*)\]\((?:\.\.\/)*(?:docs\/)?performance\.md#([\w-]+)\)/g,
      )) {
        const heading = [...performance.matchAll(/^(#+ .*)$/gm)]
          .map((match) => match[1] as string)
          .find((candidate) => slug(candidate) === anchor);
        if (heading === undefined) {
          problems.push(`${label}: no section #${anchor}`);
          continue;
        }
        const words = new Set(section(performance, heading).split(/[^\d.]+/));
        for (const number of (label as string).replaceAll(",", "").match(/\d+(\.\d+)?/g) ?? [])
          if (!words.has(number))
            problems.push(`${label}: ${number} is not in docs/performance.md#${anchor}`);
      }
      expect(problems).toEqual([]);
    });
});

describe("a user page quotes a measured figure only as a link to where it was measured", () => {
  for (const page of USER_PAGES)
    it(`${page}: every throughput or memory figure links docs/performance.md`, () => {
      // Link texts removed, what is left quotes no figure of its own (0.8.0's scaling guide quoted 0.4.0's).
      const unlinked = read(page).replace(/\[[^\]]*\]\((?:\.\.\/)*(?:docs\/)?performance\.md#[\w-]+\)/g, "");
      expect(unlinked.match(/\d[\d,]* (requests per second|req\/s|MiB resident)/g) ?? []).toEqual([]);
    });
});

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading
    .replace(/^#+ /, "")
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replaceAll(" ", "-");
}

describe("user guides keep to what a user does", () => {
  for (const page of USER_PAGES)
    it(`${page}: no maintainer's evidence (source paths, test names, commits, issues, the team's machine)`, () => {
      const text = read(page).replace(/<!--[^>]*-->/g, "");
      const evidence = [
        ...[...text.matchAll(/`((?:src|test|bench|scripts)\/[^`]*)`/g)].map((match) => match[1]),
        ...[...text.matchAll(/(?<![\w…-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w…])/g)].map(
          (m) => m[0],
        ),
        ...[...text.matchAll(/\b(issue \d+|2-core VM|the VM)\b/gi)].map((match) => match[0]),
      ];
      expect(evidence).toEqual([]);
    });

  for (const page of GUIDES.filter((candidate) => !candidate.endsWith("concepts.md")))
    it(`${page}: links the concepts page rather than explaining them again`, () => {
      expect(read(page)).toMatch(/\]\(concepts\.md(#[\w-]+)?\)/);
    });
});

describe("what issue 34 found wrong on 0.8.0", () => {
  it("the README says up front which versions of the service it is faithful to", () => {
    const top = read("README.md").split("\n## ")[0] as string;
    expect(top).toContain("API v2018-08-01");
    expect(top).toContain("Loyalty v2 beta");
    expect(top).toMatch(/renamed incentives to benefits/);
    expect(top).toMatch(/deprecated `POST \/v1\/loyalties\/\{campaignId\}\/members`/);
    expect(top).toContain("docs/fidelity.md#differences-from-the-real-service");
    const fidelity = section(read("docs/fidelity.md"), "## Differences from the real service");
    expect(fidelity).toMatch(/benefits/);
    expect(fidelity).toMatch(/deprecated/);
  });

  it("the README calls the port the server it starts listens on", () => {
    const readme = read("README.md");
    const serving = blocksOf("README.md")
      .flatMap((block) => (block.lang === "sh" ? commandsOf(block) : []))
      .map((command) => command.text.replace(/\s+#.*$/, ""))
      .find((command) => /^npx loyalty-mock(\s|$)/.test(command));
    expect(serving).toBeDefined();
    const port = /--port (\d+)/.exec(serving as string)?.[1] ?? "3000";
    const called = [...readme.matchAll(/(?:localhost|127\.0\.0\.1):(\d+)/g)].map((match) => match[1]);
    expect(called.length).toBeGreaterThan(0);
    expect(new Set(called)).toEqual(new Set([port]));
  });

  it("no page saves a snapshot under a name another page gives the state file", () => {
    const stateFiles = new Set<string>();
    const written = new Map<string, string>();
    for (const page of PAGES) {
      const text = read(page);
      for (const [, file] of text.matchAll(/(?:--state-file|LOYALTY_MOCK_STATE_FILE=)\s*(\S+?)[`\s]/g))
        stateFiles.add((file as string).replace(/^\.\//, "").split("/").at(-1) as string);
      for (const block of blocksOf(page).filter((candidate) => candidate.lang === "sh"))
        for (const [, file] of block.text.matchAll(/(?:>|-o)\s*(\S+)/g))
          written.set((file as string).replace(/^\.\//, "").split("/").at(-1) as string, page);
    }
    expect(stateFiles.size).toBeGreaterThan(0);
    expect([...written].filter(([file]) => stateFiles.has(file))).toEqual([]);
  });

  it("docs/guide/control.md's table has every control route, and its views table every view", () => {
    const page = read("docs/guide/control.md");
    const table = page.split("\n## ")[0] as string;
    const views = section(page, "## Read-only views");
    for (const route of CONTROL_ROUTES) {
      const view = VIEWS.find((candidate) =>
        route.path.startsWith(`/projects/{projectId}/${candidate.name}`),
      );
      if (view) expect(views, route.path).toContain(`\`${view.name}\``);
      else {
        const last = route.path
          .split("/")
          .filter((part) => part !== "" && !part.startsWith("{"))
          .at(-1);
        expect(table, `${route.method.toUpperCase()} /__mock${route.path}`).toMatch(
          new RegExp(`/${last}\\b`),
        );
      }
    }
  });

  it("docs/README.md links every guide and reference page, and names every command", () => {
    const index = read("docs/README.md");
    for (const page of [...GUIDES, ...markdownFiles("docs/reference")])
      expect(index, page).toContain(`](${relative("docs", page)})`);
    const commandLine = /\[Command line\]\(reference\/cli\.md\): (.*)/.exec(index)?.[1] ?? "";
    for (const name of ["wait", "webhooks listen", "verify"]) {
      expect(parseCommandLine([...name.split(" "), "--help"]).command).toBe("help");
      expect(commandLine).toContain(`\`${name}\``);
    }
  });

  it("CONTRIBUTING lists every npm script, and every tier .ci/run runs", () => {
    const contributing = read("CONTRIBUTING.md");
    const scripts = Object.keys((JSON.parse(read("package.json")) as { scripts: object }).scripts);
    const table = section(contributing, "## Scripts");
    const tiers = section(contributing, "## The checks");
    // The lifecycle scripts npm runs on its own are not run by name.
    for (const script of scripts.filter(
      (name) => !["prepare", "prestart", "prepack", "postpack"].includes(name),
    ))
      expect(table, script).toMatch(new RegExp(`\`npm (run )?${script}( |\`)`));
    for (const script of [...read(".ci/run").matchAll(/npm run (test:\w+)/g)].map((match) => match[1]))
      expect(tiers, script).toContain(`npm run ${script}`);
    const majors = /for major in ([\d ]+); do/.exec(read(".ci/run"))?.[1]?.split(" ") ?? [];
    for (const major of majors) expect(tiers, `Node ${major}`).toContain(major);
  });

  it("the testing page quotes no test counts of a past version", () => {
    expect(read("docs/internals/testing.md")).not.toMatch(/\d[\d,]* tests in \d+ files/);
  });

  it("the performance page says the load average of a run, not who else used the machine", () => {
    const performance = read("docs/performance.md");
    expect(performance).not.toMatch(/another session|other sessions|nothing else running|someone else/);
    // Issue 47: "one session", "this session", "a second session" say nothing to a reader; a date and the machine do.
    expect(performance).not.toMatch(/\b(one|this|that|a second|the same) session\b/i);
    expect(performance).toMatch(
      /\nThe project's 2-core VM, where every figure on this page was measured[^.]*Debian/,
    );
    expect(performance).not.toMatch(/the README's [a-z ]*targets/);
  });

  it("the guides where a suite is set up name the two default limits a large suite meets, with their defaults", () => {
    const tokens = SETTINGS.tokenLimit;
    const calls = SETTINGS.rateLimitPerMinute;
    for (const page of ["docs/guide/ci.md", "docs/guide/library.md", "docs/guide/concepts.md"]) {
      const text = read(page).replaceAll(",", "");
      expect(text, page).toMatch(new RegExp(`${variableOf(tokens)}|tokenLimit`));
      expect(text, page).toMatch(new RegExp(`${variableOf(calls)}|rateLimitPerMinute`));
      for (const [, n] of text.matchAll(/(\d+) (?:live|unexpired) tokens/g))
        expect(Number(n), page).toBe(tokens.default);
      for (const [, n] of text.matchAll(/(\d+) calls a minute/g)) expect(Number(n), page).toBe(calls.default);
    }
  });
});

describe("the versions a user page installs (issue 48)", () => {
  it("every tarball, git tag and image tag of this package a page names is this version's", () => {
    const { version } = JSON.parse(read("package.json")) as { version: string };
    const named = USER_PAGES.flatMap((page) =>
      [
        ...read(page).matchAll(
          /loyalty-mock-(\d+\.\d+\.\d+)\.tgz|loyalty-mock(?:\.git)?[@#]v(\d+\.\d+\.\d+)|loyalty-mock:(\d+\.\d+\.\d+)/g,
        ),
      ].map((match) => ({ page, version: match[1] ?? match[2] ?? match[3] })),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((one) => one.version !== version)).toEqual([]);
  });
});
