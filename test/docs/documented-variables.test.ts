import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config/settings.js";
import { filesUnder } from "../helpers/files.js";
import { ROOT } from "../helpers/process.js";

/**
 * Issue 47 item 7: verify.md told a user to export LOYALTY_MOCK_VERIFY_APP_ID, and a server started from the same
 * shell called it "not a setting; ignored", as it does a typo. Every prefixed variable a page names is read by the
 * server without a warning (a setting, or a variable another command or the compose file reads), but for the typo
 * a page shows warned of.
 */
const markdownFiles = (dir: string) => filesUnder(join(ROOT, dir), ".md").map((path) => relative(ROOT, path));

const PAGES = ["README.md", "CONTRIBUTING.md", ...markdownFiles("docs"), "docs/examples/compose.yaml"];

/** The lines readConfig warns with when `name` alone is set (to a value every setting that takes text accepts). */
function warningsFor(name: string): string[] {
  const warnings: string[] = [];
  try {
    readConfig({ [name]: "1" }, {}, (line) => warnings.push(line));
  } catch {
    // a setting refusing "1" is a problem of its value, not a warning about its name
  }
  return warnings;
}

describe("a variable a page names is no typo to the server", () => {
  for (const page of PAGES)
    it(`${page}: the server warns of none of its LOYALTY_MOCK_ variables but the typos it shows`, () => {
      const text = readFileSync(join(ROOT, page), "utf8");
      const names = new Set([...text.matchAll(/LOYALTY_MOCK_[A-Z0-9_]*[A-Z0-9]/g)].map((match) => match[0]));
      const warned = [...names].filter((name) => warningsFor(name).length > 0);
      const typos = warned.filter((name) => text.includes(`${name} is not a setting; ignored`));
      expect(warned.filter((name) => !typos.includes(name))).toEqual([]);
      for (const name of typos) expect(warningsFor(name)).toEqual([`${name} is not a setting; ignored`]);
    });

  it("verify's and play's key pairs, set beside the server's settings, are not warned of", () => {
    const warnings: string[] = [];
    readConfig(
      {
        LOYALTY_MOCK_PORT: "4000",
        LOYALTY_MOCK_VERIFY_APP_ID: "app",
        LOYALTY_MOCK_VERIFY_APP_TOKEN: "token",
        LOYALTY_MOCK_PLAY_APP_ID: "app",
        LOYALTY_MOCK_PLAY_APP_TOKEN: "token",
        LOYALTY_MOCK_VERIFI_APP_ID: "app",
      },
      {},
      (line) => warnings.push(line),
    );
    expect(warnings).toEqual(["LOYALTY_MOCK_VERIFI_APP_ID is not a setting; ignored"]);
  });
});
