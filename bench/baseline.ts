import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./targets.js";

function git(args: string[], cwd = ROOT): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
}

/**
 * An earlier commit built beside this tree, to measure against in the same run: checked out in a temporary
 * worktree sharing this one's node_modules, built as `npm run build` builds, and removed by `cleanUp` (also when
 * the run is interrupted). `script` is its `dist/main.js`, absolute.
 */
export function checkoutBaseline(ref: string): { commit: string; script: string; cleanUp: () => void } {
  const commit = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  const tmp = mkdtempSync(join(tmpdir(), "loyalty-mock-baseline-"));
  const tree = join(tmp, "baseline");
  git(["worktree", "add", "--detach", tree, commit]);
  const cleanUp = () => {
    git(["worktree", "remove", "--force", tree]);
    rmSync(tmp, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => {
      cleanUp();
      process.exit(130);
    });
  try {
    symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"), "dir");
    for (const dir of [ROOT, tree])
      execFileSync("npx", ["tsc", "-b", "tsconfig.build.json"], { cwd: dir, stdio: "inherit" });
    const script = join(tree, "dist", "main.js");
    if (!existsSync(script)) throw new Error(`the baseline ${ref} has no dist/main.js once built`);
    return { commit, script, cleanUp };
  } catch (error) {
    cleanUp();
    throw error;
  }
}
