import type { ServerResponse } from "node:http";
import { createGzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../src/cli/command-line.js";
import { playScenario } from "../../src/clients/play/player.js";
import { parseScenario } from "../../src/clients/play/scenario.js";
import { type RunningServer, startServer } from "../../src/index.js";
import { answerWith, type Handler, type Hostile, startHostile, stream } from "./hostile-target.js";
import { play, scenarioFile } from "./play-helpers.js";

// `loyalty-mock play` against servers that misbehave on purpose, each a real server on loopback: in front of a real
// stand-in, the hostile one changes the answer to one path; a second one, where its redirects point, records
// whatever reaches it, which must be nothing.

const ADMIN = "admin-token-5ecret";
const KEYS = { appId: "demo-app-id", appToken: "demo-app-token" };
const MIB = 1024 * 1024;
const MEMBERS = "/v1/loyalties/camp_demo_loyalty/members";
const JOIN = {
  title: "Join",
  steps: [{ type: "join", campaign: "camp_demo_loyalty", customer: { source_id: "zofia@example.com" } }],
};
const CLOCK = { title: "Clock", steps: [{ type: "clock", advance: "1d" }] };
const TIER = {
  title: "Tier",
  steps: [
    { type: "tier", structure: "lts_d0000000000000001", name: "Gold", min_points: 5000, max_points: 9999 },
  ],
};

describe("play against hostile servers", () => {
  let standIn: RunningServer;
  /** Where redirects point: it answers as the stand-in would, so a play that went there would go on. */
  let elsewhere: Hostile;
  const open: Hostile[] = [];

  beforeAll(async () => {
    standIn = await startServer({ host: "127.0.0.1", port: 0, adminToken: ADMIN });
    elsewhere = await startHostile(standIn.url, async (req, res) => {
      const up = await req.upstream();
      answerWith(res, up, up.text);
    });
  });
  afterAll(async () => {
    await Promise.all([...open, elsewhere].map((server) => server?.close()));
    await standIn?.close();
  });

  /** A server in front of the stand-in that answers `path` (its start) with `send`, and the rest as the stand-in. */
  const hostileOn = async (path: string, send: Handler) => {
    const server = await startHostile(standIn.url, async (req, res) => {
      if (req.path.startsWith(path)) return send(req, res);
      const up = await req.upstream();
      answerWith(res, up, up.text);
    });
    open.push(server);
    return server;
  };

  const expectNothingElsewhere = () => expect(elsewhere.seen).toEqual([]);

  describe("redirects: never followed, the step fails naming it (exit 1)", () => {
    it("307 on the key look-up: the admin token goes to --url only", async () => {
      const path = "/__mock/projects/demo/keys";
      const target = await hostileOn(path, (req, res) => {
        res.writeHead(307, { location: `${elsewhere.url}${req.path}` }).end();
      });
      const ran = await play({ scenario: scenarioFile(JOIN), url: target.url, adminToken: ADMIN });
      expect(ran).toEqual({
        status: 1,
        out: "",
        err: `loyalty-mock play: the project's key pair: GET ${path} answered 307, a redirect to ${elsewhere.url}${path}: play follows no redirect, so that its credentials reach no other address\n`,
      });
      expect(target.seen.map((seen) => seen.headers["x-mock-admin-token"])).toEqual([ADMIN]);
      expectNothingElsewhere();
    });

    it.each([
      ["join", JOIN, MEMBERS, "join zofia@example.com"],
      ["clock", CLOCK, "/__mock/projects/demo/clock", "clock +1d"],
      ["token request of a v2 step", TIER, "/v1/oauth/token", "tier Gold"],
    ])(
      "on the %s: the key pair and the admin token reach nothing else",
      async (_kind, scenario, path, named) => {
        const target = await hostileOn(path, (req, res) => {
          res.writeHead(307, { location: `${elsewhere.url}${req.path}` }).end();
        });
        const ran = await play({
          scenario: scenarioFile(scenario),
          url: target.url,
          ...KEYS,
          adminToken: ADMIN,
        });
        expect(ran.status).toBe(1);
        expect(ran.err).toBe(
          `loyalty-mock play: step 1 (${named}) failed: POST ${path} answered 307, a redirect to ${elsewhere.url}${path}: play follows no redirect, so that its credentials reach no other address\n`,
        );
        expect(ran.out).not.toContain("Done");
        expectNothingElsewhere();
      },
    );

    it.each([301, 302, 303, 308])("%i, its Location named without the password it holds", async (status) => {
      const away = `http://someone:pa55-in-location@127.0.0.1:${elsewhere.port}`;
      const target = await hostileOn(MEMBERS, (req, res) => {
        res.writeHead(status, { location: `${away}${req.path}?token=${KEYS.appToken}` }).end();
      });
      const ran = await play({ scenario: scenarioFile(JOIN), url: target.url, ...KEYS });
      expect(ran.status).toBe(1);
      expect(ran.err).toContain(`answered ${status}, a redirect to ${elsewhere.url}${MEMBERS}: play follows`);
      expect(`${ran.out}${ran.err}`).not.toMatch(/someone|pa55-in-location|token=/);
      expectNothingElsewhere();
    });

    it("300 without a Location is a redirect too, not a played step", async () => {
      const target = await hostileOn(MEMBERS, (_req, res) => void res.writeHead(300).end());
      const ran = await play({ scenario: scenarioFile(JOIN), url: target.url, ...KEYS });
      expect(ran.status).toBe(1);
      expect(ran.err).toContain(
        `POST ${MEMBERS} answered 300, a redirect (no Location): play follows no redirect`,
      );
      expect(ran.out).not.toContain("card undefined");
    });
  });

  describe("answers play cannot build on: the step fails, saying what was wrong (exit 1)", () => {
    it.each<[string, (res: ServerResponse) => void, string]>([
      [
        "HTML",
        (res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>Moved</html>"),
        "answered 200 with 18 bytes that are not a JSON object (Content-Type text/html): play reads JSON answers only",
      ],
      ["an empty body", (res) => res.writeHead(200).end(), "answered 200 with an empty body"],
      [
        "JSON that is not an object",
        (res) => res.writeHead(200, { "content-type": "application/json" }).end("[1,2]"),
        "answered 200 with 5 bytes that are not a JSON object",
      ],
      [
        "an object without the card's code (it was printed as card undefined)",
        (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"object":"voucher"}'),
        "answered 200 without code (a string)",
      ],
      [
        "JSON nested 100,000 levels deep",
        (res) => res.writeHead(200).end(`${"[".repeat(100_000)}${"]".repeat(100_000)}`),
        `the answer to POST ${MEMBERS} nests deeper than 64 levels: play does not read it`,
      ],
      [
        "an error whose details would rewrite the terminal",
        (res) =>
          res.writeHead(500).end(JSON.stringify({ key: "boom", details: `\x1b[2J${"x".repeat(500)}` })),
        `answered 500 boom: ?[2J${"x".repeat(190)}…\n`,
      ],
    ])("%s", async (_case, send, reason) => {
      const target = await hostileOn(MEMBERS, (_req, res) => send(res));
      const ran = await play({ scenario: scenarioFile(JOIN), url: target.url, ...KEYS });
      expect(ran.status).toBe(1);
      expect(ran.err).toContain(reason);
      expect(ran.err).toMatch(/^loyalty-mock play: step 1 \(join zofia@example.com\) failed: /);
      expect(ran.out).not.toContain("card");
    });
  });

  describe("answers without bounds: read up to --max-answer-bytes, no further", () => {
    const endless = (res: ServerResponse, total?: number) => {
      res.writeHead(200, { "content-type": "application/json" });
      stream(res, Buffer.from(`"${"x".repeat(64 * 1024 - 2)}"`), total);
    };

    it("a 100 MB answer fails the step at 8 MiB, naming the cap", async () => {
      const target = await hostileOn(MEMBERS, (_req, res) => endless(res, 100 * MIB));
      const ran = await play({ scenario: scenarioFile(JOIN), url: target.url, ...KEYS });
      expect(ran.status).toBe(1);
      expect(ran.err).toBe(
        `loyalty-mock play: step 1 (join zofia@example.com) failed: the answer to POST ${MEMBERS} is more than 8388608 bytes (--max-answer-bytes): play reads no further\n`,
      );
      // What the server managed to send: the cap, plus what the kernel's buffers took before play hung up.
      expect(target.bytesSent()).toBeLessThan(32 * MIB);
    });

    it("an endless answer with --max-answer-bytes 1 MiB", async () => {
      const target = await hostileOn(MEMBERS, (_req, res) => endless(res));
      const ran = await play({ scenario: scenarioFile(JOIN), url: target.url, ...KEYS, maxAnswerBytes: MIB });
      expect(ran.err).toContain("is more than 1048576 bytes (--max-answer-bytes): play reads no further");
      expect(target.bytesSent()).toBeLessThan(24 * MIB);
    });

    it("the key look-up's gzip answer that inflates without end: its decoded size is capped too", async () => {
      const target = await hostileOn("/__mock/projects/demo/keys", (_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        const gzip = createGzip();
        gzip.pipe(res);
        stream(gzip as unknown as ServerResponse, Buffer.alloc(MIB));
      });
      const ran = await play({ scenario: scenarioFile(JOIN), url: target.url, adminToken: ADMIN });
      expect(ran.err).toContain(
        "the answer to GET /__mock/projects/demo/keys decodes to more than 8388608 bytes (--max-answer-bytes)",
      );
      expect(target.bytesSent()).toBeLessThan(MIB);
    });
  });

  describe("a server that never answers: the call's timeout fails the step", () => {
    it.each<[string, Handler]>([
      ["no status line", () => undefined],
      [
        "a status line, then a body that never ends",
        (_req, res) => void res.writeHead(200).write('{"code":'),
      ],
    ])("%s", async (_case, hang) => {
      const target = await hostileOn(MEMBERS, hang);
      const lines: string[] = [];
      const result = await playScenario(parseScenario(JSON.stringify(JOIN)), {
        url: target.url,
        projectId: "demo",
        keys: KEYS,
        speed: 1000,
        timeoutMs: 300,
        print: (line) => lines.push(line),
      });
      expect(result).toEqual({
        ok: false,
        step: 1,
        message: `step 1 (join zofia@example.com) failed: ${target.url} gave no whole answer to POST ${MEMBERS} within 0.3 s`,
      });
    });
  });

  it("a --url with a user name and password: refused before any call (exit 2), neither said", async () => {
    const target = await hostileOn("/", (_req, res) => void res.writeHead(500).end());
    const url = `http://alice-the-user:pa55-in-url@127.0.0.1:${target.port}`;
    const parse = () => parseCommandLine(["play", "first-month", "--url", url]);
    expect(parse).toThrow(UsageError);
    // The whole message: nothing of the URL in it.
    expect(parse).toThrow(
      /^play: invalid value for --url: must not hold a user name or password \(user:pw@\); the key pair goes in --app-id and --app-token$/,
    );
    expect(target.seen).toEqual([]);
  });
});
