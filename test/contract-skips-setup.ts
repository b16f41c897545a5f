import { afterAll, beforeAll } from "vitest";
import { setRunningFile } from "./helpers/contract-skips.js";

// Runs before each test file (vitest's setupFiles): a contract check skipped in a hook of the file is counted in the
// file's meta, as no test is running then (test/helpers/contract-skips.ts). The file is a hook's second argument.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a hook's first argument as fixtures, always a pattern
beforeAll(({}, file) => setRunningFile(file));
afterAll(() => setRunningFile(undefined));
