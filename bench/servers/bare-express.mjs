// The design's limit: an Express 5 app with one route returning the same JSON, with Express's defaults.
import express from "express";

const location = JSON.parse(process.env.BENCH_BODY ?? "{}");
const app = express();
app.get("/v1/locations/:locationId", (_req, res) => {
  res.json(location);
});
const server = app.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
