// The platform's limit: node:http answering GET with a location's JSON, nothing else.
import { createServer } from "node:http";

const location = process.env.BENCH_BODY ?? "{}";
const server = createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
  res.end(location);
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
