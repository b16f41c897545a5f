import { readFileSync } from "node:fs";

/** The package version, read once: `<package root>/package.json` from src/ and from dist/ alike. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }
).version;
