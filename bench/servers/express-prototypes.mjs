// The design's limit when Express is served as ours is: the bare Express 5 app of bare-express.mjs, with Node
// building each request and response with the app's prototypes, so Express's Object.setPrototypeOf per request
// finds them in place (src/http/server/http-server.ts explains why that matters). The classes are ours, from the
// build (`npm run build`), so the reference keeps whatever ours does (their fixed shapes, issue 36).
import { createServer } from "node:http";
import express from "express";
import { appMessageClasses } from "../../dist/http/fast/prototypes.js";

const location = JSON.parse(process.env.BENCH_BODY ?? "{}");
const app = express();
app.get("/v1/locations/:locationId", (_req, res) => {
  res.json(location);
});
const server = createServer(appMessageClasses(app), app);
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
