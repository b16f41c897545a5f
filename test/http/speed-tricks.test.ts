import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { ErrorRequestHandler } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../src/config/settings.js";
import { baseApp, finishApp } from "../../src/http/app.js";
import { SPEED_TRICKS, type SpeedTrick, type SpeedTricks } from "../../src/http/fast/index.js";
import { FORM_FIELD_LIMIT, formBody, jsonBody } from "../../src/http/input/body.js";
import { createHttpServer } from "../../src/http/server/http-server.js";
import { useServer } from "../helpers/listen.js";
import { SPEED_TRICK_VARIANTS } from "../helpers/speed-tricks.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * Each speed trick (http/fast) answers exactly as the ordinary path, which the differential tests hold it to
 * (http/server-prototypes.test.ts, http/json-body.test.ts); so those pass whether a switch works or not. These tests
 * show that each switch turns its own trick off and leaves the others running, by what each trick leaves to be
 * seen besides the answer.
 */

const useListening = useServer();
const listen = async (server: Server): Promise<string> => (await useListening(server)).url;

/** Whether requests are built on the app's prototypes, res.json skips res.send, and journal reads build entries. */
async function observeServer(speedTricks: SpeedTricks) {
  const { app, demo } = buildWorld({ speedTricks });
  let onPrototypes = false;
  // The app itself, watched: the same function, prototypes and settings, so createHttpServer treats it as the app.
  const watched = Object.assign(
    (req: IncomingMessage, res: ServerResponse) => {
      onPrototypes = Object.getPrototypeOf(req) === app.request;
      app(req, res);
    },
    { request: app.request, response: app.response, locals: app.locals },
  );
  const server = createHttpServer(watched, { limits: DEFAULTS.connectionLimits });
  try {
    const res = await fetch(`${await listen(server)}/v1/locations/loc_demo_circle`, { headers: DEMO_KEYS });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  const [first] = demo.journal.list();
  const [second] = demo.journal.list();
  expect(first).toBeDefined();
  expect(second).toEqual(first);
  return { prototypes: onPrototypes, lazyJournal: first !== second };
}

/**
 * Whether a plain JSON body is read by the plain reader: an error body-parser made (http-errors) carries the raw
 * body it could not parse; the reader's is JSON.parse's own SyntaxError.
 */
async function observeJsonReader(speedTricks: SpeedTricks): Promise<boolean> {
  const app = baseApp({ ...DEFAULTS, speedTricks });
  let fromBodyParser: boolean | undefined;
  const watch: ErrorRequestHandler = (error, _req, _res, next) => {
    fromBodyParser = "body" in error;
    next(error);
  };
  app.post("/probe", ...jsonBody(1024), watch);
  const res = await request(finishApp(app, DEFAULTS.bodyLimit))
    .post("/probe")
    .set("Content-Type", "application/json")
    .send('{"a":');
  expect(res.status).toBe(400);
  expect(fromBodyParser).toBeDefined();
  return !fromBodyParser;
}

/**
 * Whether a plain form body is read by the plain reader: an error body-parser made (http-errors) says whether it
 * may be shown (`expose`); the reader's error for the same body (too many fields) carries only status and type.
 */
async function observeFormReader(speedTricks: SpeedTricks): Promise<boolean> {
  const app = baseApp({ ...DEFAULTS, speedTricks });
  let fromBodyParser: boolean | undefined;
  const watch: ErrorRequestHandler = (error, _req, _res, next) => {
    fromBodyParser = "expose" in error;
    next(error);
  };
  app.post("/probe", ...formBody(4096), watch);
  const res = await request(finishApp(app, DEFAULTS.bodyLimit))
    .post("/probe")
    .set("Content-Type", "application/x-www-form-urlencoded")
    .send(Array.from({ length: FORM_FIELD_LIMIT + 1 }, (_, i) => `f${i}=x`).join("&"));
  expect(res.status).toBe(413);
  expect(fromBodyParser).toBeDefined();
  return !fromBodyParser;
}

describe.each(SPEED_TRICK_VARIANTS)("with %s", (_name, speedTricks) => {
  it("runs exactly the tricks that are not switched off", async () => {
    const expected = Object.fromEntries(SPEED_TRICKS.map((trick) => [trick, speedTricks[trick] ?? true]));
    const seen: Record<SpeedTrick, boolean> = {
      ...(await observeServer(speedTricks)),
      jsonReader: await observeJsonReader(speedTricks),
      formReader: await observeFormReader(speedTricks),
    };
    expect(seen).toEqual(expected);
  });
});
