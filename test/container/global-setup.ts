import { execFileSync } from "node:child_process";
import { ROOT } from "../helpers/process.js";
import { DOCKER, IMAGE } from "./docker.js";

/**
 * The image the container tier tests: LOYALTY_MOCK_IMAGE as .ci/run built it, or else loyalty-mock:test, built
 * here from the sources on every run (Docker's layer cache makes an unchanged build take seconds), so that a
 * change to src/ is never tested on a stale image. On NODE_IMAGE and with the NPM_CA secret when those are set,
 * as ../shared/container/docker-env.sh sets them.
 */
export function setup(): void {
  if (process.env.LOYALTY_MOCK_IMAGE) {
    try {
      execFileSync(DOCKER, ["image", "inspect", IMAGE], { stdio: "pipe" });
      return;
    } catch {
      // named but not built: build it under that name
    }
  }
  const args = ["build", "-t", IMAGE];
  if (process.env.NODE_IMAGE) args.push("--build-arg", `NODE_IMAGE=${process.env.NODE_IMAGE}`);
  if (process.env.NPM_CA) args.push("--secret", `id=npm_ca,src=${process.env.NPM_CA}`);
  execFileSync(DOCKER, [...args, "."], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    timeout: 600_000,
    env: { ...process.env, DOCKER_BUILDKIT: "1" },
  });
}
