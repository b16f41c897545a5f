import { connect } from "node:net";
import type { Express } from "express";
import fc from "fast-check";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plainJsonLength } from "../../src/http/fast/json-reader.js";
import { ManualClock } from "../../src/platform/clock.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { validateAny } from "../helpers/contract.js";
import { served } from "../helpers/http.js";
import { NO_TRICKS, SPEED_TRICK_VARIANTS } from "../helpers/speed-tricks.js";
import { buildWorld, DEMO_KEYS, defaultDocuments, storeSnapshot } from "../helpers/world.js";

/**
 * A plain `application/json` body is read by the JSON reader speed trick (http/fast/json-reader.ts) instead of
 * body-parser. The two must not be told apart: every body, valid or not, gets the same answer (status, headers,
 * key, message, details) whichever reads it. The same bytes are sent once as `application/json` (the plain
 * reader, when the app runs it), once as `application/vnd.api+json`, a JSON type only body-parser reads, and once
 * as `application/json` to an app without any speed trick; with every trick, and with each switched off.
 */

const MEMBERS = "/v1/loyalties/camp_does_not_exist/members";
const ordinary = buildWorld({ speedTricks: NO_TRICKS }).app;

async function answer(app: Express, type: string, body: string | Buffer) {
  const res = await request(await served(app))
    .post(MEMBERS)
    .set(DEMO_KEYS)
    .set("Content-Type", type)
    .send(Buffer.isBuffer(body) ? body : Buffer.from(body));
  validateAny("POST", MEMBERS, res.status, res.body);
  const { request_id: _id, ...rest } = res.body as Record<string, unknown>;
  return {
    status: res.status,
    contentType: res.headers["content-type"],
    contentLength: res.headers["content-length"],
    body: rest,
  };
}

describe.each(SPEED_TRICK_VARIANTS)(
  "with %s, the plain JSON reader answers as body-parser does",
  (name, tricks) => {
    const { app, demo } = buildWorld({ speedTricks: tricks });

    async function expectSameAnswer(body: string | Buffer): Promise<void> {
      const plain = await answer(app, "application/json", body);
      const parsedByBodyParser = await answer(app, "application/vnd.api+json", body);
      expect(plain, JSON.stringify(body.toString())).toEqual(parsedByBodyParser);
      const ordinaryAnswer = await answer(ordinary, "application/json", body);
      expect(plain, JSON.stringify(body.toString())).toEqual(ordinaryAnswer);
    }

    const cases = [
      '{"customer":{"source_id":"a"}}',
      "[]",
      "{}",
      "   ",
      "\n\t {",
      "",
      "null",
      "true",
      '"text"',
      "12",
      "  12",
      "undefined",
      "{'a':1}",
      '{"a":1',
      '{"a":1}}',
      '{"a":1} x',
      "[1,2,]",
      '{"__proto__":{"x":1}}',
      "\uFEFF{}",
      "\uFEFF 7",
      "{\u00e9}",
      "\u000b{}",
      "\f[]",
      "\u00a0{}",
    ];
    it.each(cases)("%j", async (body) => {
      await expectSameAnswer(body);
    });

    it("for bytes that are not UTF-8", async () => {
      await expectSameAnswer(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]));
      await expectSameAnswer(Buffer.from([0xc3, 0x28]));
    });

    it("for any JSON text, and any text at all", async () => {
      const before = storeSnapshot(demo);
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.json(),
            fc.string({ unit: "grapheme", maxLength: 40 }),
            fc.jsonValue().map((v) => JSON.stringify(v).slice(1)),
          ),
          async (text) => {
            await expectSameAnswer(text);
          },
        ),
        // The server as it runs by default gets the most cases; each switched-off variant a sample of them, as
        // the fixed cases above already hold every variant to the ordinary answer.
        { numRuns: name === "every trick" ? 75 : 15 },
      );
      expect(storeSnapshot(demo)).toBe(before);
    });
  },
);

describe("which bodies the plain reader takes", () => {
  const req = (headers: Record<string, string>) => ({ headers }) as never;
  it("takes application/json, with or without a utf-8 charset, within the limit", () => {
    expect(plainJsonLength(req({ "content-type": "application/json", "content-length": "10" }), 100)).toBe(
      10,
    );
    expect(
      plainJsonLength(
        req({ "content-type": "Application/JSON; charset=UTF-8", "content-length": "10" }),
        100,
      ),
    ).toBe(10);
    expect(
      plainJsonLength(
        req({ "content-type": "application/json", "content-length": "10", "content-encoding": "identity" }),
        100,
      ),
    ).toBe(10);
  });

  it("leaves everything else to body-parser", () => {
    const cases: Record<string, string>[] = [
      { "content-type": "application/json", "content-length": "101" },
      { "content-type": "application/json; charset=latin1", "content-length": "10" },
      { "content-type": "application/vnd.api+json", "content-length": "10" },
      { "content-type": "application/json", "content-length": "10", "content-encoding": "gzip" },
      { "content-type": "application/json", "transfer-encoding": "chunked" },
      { "content-type": "application/json", "content-length": "0" },
      { "content-length": "10" },
    ];
    for (const headers of cases)
      expect(plainJsonLength(req(headers), 100), JSON.stringify(headers)).toBeUndefined();
  });
});

describe.each(SPEED_TRICK_VARIANTS)("with %s, a plain JSON body cut short", (_, speedTricks) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      documents: defaultDocuments(),
      clock: new ManualClock(),
      speedTricks,
    });
  });
  afterAll(() => server.close());

  /** Sends the head and half the body of an assignment, then hangs up; answers what the journal recorded. */
  async function cutShort(type: string): Promise<unknown> {
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, "127.0.0.1", () => {
        socket.write(
          `POST /v1/loyalties/camp_demo_loyalty/members HTTP/1.1\r\nHost: x\r\nX-App-Id: demo-app-id\r\nX-App-Token: demo-app-token\r\nContent-Type: ${type}\r\nContent-Length: 100\r\n\r\n{"customer":`,
          () => setTimeout(() => socket.destroy(), 50),
        );
      });
      socket.on("close", () => resolve());
    });
    // The server has seen the hang-up once it answers the next request.
    const res = await fetch(`http://127.0.0.1:${server.port}/v1/locations/loc_demo_circle`, {
      headers: DEMO_KEYS,
    });
    expect(res.status).toBe(200);
    const journal = await fetch(`http://127.0.0.1:${server.port}/__mock/projects/demo/requests?method=POST`);
    const [entry] = ((await journal.json()) as { requests: Record<string, unknown>[] }).requests;
    const { request_id: _id, time: _time, duration_ms: _duration, headers: _headers, ...rest } = entry ?? {};
    return rest;
  }

  it("changes nothing, is journaled as body-parser's would be, and leaves the server serving", async () => {
    const demoProject = server.registry.get("demo");
    const before = storeSnapshot(demoProject);
    const plain = await cutShort("application/json");
    const parsedByBodyParser = await cutShort("application/vnd.api+json");
    expect(plain).toEqual(parsedByBodyParser);
    expect(plain).toMatchObject({
      status: 400,
      response_body: { key: "bad_request", details: "request aborted" },
    });
    expect(storeSnapshot(demoProject)).toBe(before);
  });
});
