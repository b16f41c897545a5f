// Our server as `npm start` runs it for the benchmark (the built package, its defaults, logging at info to
// stdout), with the speed tricks named in BENCH_SPEED_TRICKS_OFF (comma-separated) switched off. Only the tricks
// benchmark (bench/tricks.ts) starts it, every variant the same way, all-on included; this variable is read
// nowhere else.

import { SPEED_TRICKS } from "../../dist/http/fast/index.js";
import { startServer } from "../../dist/index.js";
import { createLogger } from "../../dist/platform/logger.js";

const off = (process.env.BENCH_SPEED_TRICKS_OFF ?? "").split(",").filter((name) => name !== "");
for (const name of off)
  if (!SPEED_TRICKS.includes(name))
    throw new Error(`unknown speed trick ${name}; known: ${SPEED_TRICKS.join(", ")}`);
const logger = createLogger({ level: "info" });
const running = await startServer({
  host: "127.0.0.1",
  port: Number(process.env.LOYALTY_MOCK_PORT),
  fixturesDir: process.env.LOYALTY_MOCK_FIXTURES_DIR,
  tokenLimit: Number(process.env.LOYALTY_MOCK_TOKEN_LIMIT),
  rateLimitPerMinute: Number(process.env.LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE),
  caps: {
    eventsPerProject: Number(process.env.LOYALTY_MOCK_EVENT_LIMIT),
    membersPerProject: Number(process.env.LOYALTY_MOCK_MEMBER_LIMIT),
  },
  logger,
  speedTricks: Object.fromEntries(off.map((name) => [name, false])),
});
process.on("SIGTERM", () => running.close().then(() => logger.flush(() => process.exit(0))));
