import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * What the package promises is what CI tests (issue 25): `engines` names exactly the Node majors whose fast tier
 * .ci/run runs (this machine's 20, then the others it fetches), and the image's labels say package.json's version.
 */
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const manifest = JSON.parse(read("package.json")) as { version: string; engines: { node: string } };

describe("supported runtimes and the image's version", () => {
  it("engines names the majors CI runs the fast tier on, and only those", () => {
    const fetched = /for major in ([\d ]+); do/.exec(read(".ci/run"))?.[1]?.split(" ").map(Number) ?? [];
    const promised = manifest.engines.node
      .split(" || ")
      .map((range) => Number(/^\^(\d+)\./.exec(range)?.[1]));
    expect(promised).toEqual([20, ...fetched]);
    expect(fetched.length).toBeGreaterThan(0);
  });

  it("the pages that say which Node.js to install name the majors engines names, and no other (issue 47)", () => {
    // "20.12 or newer" let a reader take 21, 23 or 25, which engines leaves out and npm warns of.
    const majors = manifest.engines.node.split(" || ").map((range) => {
      const [, major, minor] = /^\^(\d+)\.(\d+)\.0$/.exec(range) ?? [];
      return minor === "0" ? `${major}` : `${major} (${major}.${minor} or later)`;
    });
    const said = `Node.js ${majors.slice(0, -1).join(", ")} or ${majors.at(-1)}`;
    for (const page of ["README.md", "CONTRIBUTING.md", "docs/guide/python.md"]) {
      const text = read(page).replace(/\s+/g, " ");
      expect(text, page).toContain(said);
      expect(text, page).not.toMatch(/Node(\.js)? [\d.]+ or (newer|later)/);
    }
  });

  it("the Dockerfile labels the image with package.json's version and builds on a Node 24 LTS slim image", () => {
    const dockerfile = read("Dockerfile");
    expect(dockerfile).toContain(`\nARG VERSION=${manifest.version}\n`);
    expect(dockerfile).toContain("\nARG NODE_IMAGE=node:24-bookworm-slim\n");
  });
});
