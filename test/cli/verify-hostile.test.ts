import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { createGzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STEPS } from "../../src/cli/verify/steps.js";
import type { RunningServer } from "../../src/index.js";
import {
  answerWith,
  type Handler,
  type Hostile,
  startHostile,
  stream,
  type Upstream,
} from "./hostile-target.js";
import { type Ran, SECRETS, startTarget, tempDir, verify, writeConfig } from "./verify-helpers.js";

// `loyalty-mock verify` against targets that misbehave on purpose, each a real server on loopback written here:
// echoing secrets where a client would not look, redirecting, sending without end, nesting without end.

interface JsonReport {
  steps: { name: string; differences: { path: string; kind: string; target: unknown; mock: unknown }[] }[];
  matched: number;
  differed: number;
  stopped?: string;
}

const readJson = <T = JsonReport>(file: string) => JSON.parse(readFileSync(file, "utf8")) as T;
const MIB = 1024 * 1024;

describe("verify against hostile targets", () => {
  let standIn: RunningServer;
  const temp = tempDir();
  const open: Hostile[] = [];
  /** Every access token the stand-in issued through a hostile target. */
  const tokens: string[] = [];

  beforeAll(async () => {
    standIn = await startTarget();
  });
  afterAll(async () => {
    await Promise.all(open.map((server) => server.close()));
    await standIn?.close();
    temp.remove();
  });

  const hostile = async (handle: Handler, upstream: string | undefined = standIn.url) => {
    const server = await startHostile(upstream, handle);
    open.push(server);
    return server;
  };

  /** The stand-in's answer, its body changed by `change` (JSON in, JSON or raw text out), its token noted. */
  const rewriting = (change: (body: Record<string, unknown>, up: Upstream) => unknown, headers = {}) =>
    hostile(async (req, res) => {
      const up = await req.upstream();
      const body = up.text === "" ? {} : (JSON.parse(up.text) as Record<string, unknown>);
      if (typeof body.access_token === "string") tokens.push(body.access_token);
      const changed = change(body, up);
      answerWith(res, up, typeof changed === "string" ? changed : JSON.stringify(changed), headers);
    });

  const files = (name: string) => ({
    json: join(temp.dir, `${name}.json`),
    record: join(temp.dir, `${name}.rec.json`),
  });

  /** No secret in any form verify might have written it: any case, percent-encoded. */
  function expectNoSecret(ran: Ran, written: string[]) {
    const everything = [ran.stdout, ran.stderr, ...written].join("\n").toLowerCase();
    expect(tokens.length).toBeGreaterThan(0);
    for (const secret of [...Object.values(SECRETS), ...tokens])
      for (const form of [secret, encodeURIComponent(secret)])
        expect(everything).not.toContain(form.toLowerCase());
  }

  describe("secrets wherever the target puts them", () => {
    const token = () => tokens.at(-1) ?? "no-token-yet";
    it.each<[string, (body: Record<string, unknown>) => unknown, Record<string, string>?]>([
      ["as object keys", (body) => ({ ...body, [SECRETS.appToken]: 1, echo: { [token()]: SECRETS.appId } })],
      [
        "in an error's key",
        (body) => (typeof body.key === "string" ? { ...body, key: `${body.key}:${SECRETS.appToken}` } : body),
      ],
      [
        "in the media type, upper case",
        (body) => body,
        { "content-type": `${SECRETS.appToken.toUpperCase()}/json` },
      ],
      [
        "percent-encoded and in another case",
        (body) => ({
          ...body,
          echo: `?t=${encodeURIComponent(SECRETS.appToken.toUpperCase())}&id=${SECRETS.appId}`,
        }),
      ],
      [
        "under a property named constructor",
        (body) => ({
          ...body,
          constructor: { app_id: SECRETS.appId, app_token: SECRETS.appToken, token: token() },
        }),
      ],
    ])("%s: nothing printed or written holds one", async (_case, change, headers) => {
      const target = await rewriting(change, headers);
      const out = files(`leak-${open.length}`);
      const ran = await verify(
        { config: writeConfig(temp.dir, target.url, { secretsInFile: false }), ...out },
        {
          LOYALTY_MOCK_VERIFY_APP_ID: SECRETS.appId,
          LOYALTY_MOCK_VERIFY_APP_TOKEN: SECRETS.appToken,
        },
      );
      expect(ran.status).toBe(1);
      const written = [readFileSync(out.json, "utf8"), readFileSync(out.record, "utf8")];
      expectNoSecret(ran, written);
      expect(written.join("")).toContain("<secret>");
    });

    it("a property named constructor is normalized like any other: its token masked as a token", async () => {
      const target = await rewriting((body) => ({
        ...body,
        constructor: { access_token: token(), request_id: "x" },
      }));
      const out = files("constructor");
      await verify({ config: writeConfig(temp.dir, target.url), ...out });
      const recording = readJson<{
        exchanges: { step: string; answer: { body: Record<string, unknown> } }[];
      }>(out.record);
      for (const exchange of recording.exchanges)
        expect(exchange.answer.body.constructor).toEqual({
          access_token: "<access_token>",
          request_id: "<request_id>",
        });
    });

    it("__proto__ in an answer is a plain property: compared, recorded and replayed, no prototype touched", async () => {
      const target = await rewriting((body, up) =>
        up.status === 200 ? JSON.stringify(body).replace(/^\{/, '{"__proto__":{"polluted":true},') : body,
      );
      const out = files("proto");
      const ran = await verify({ config: writeConfig(temp.dir, target.url), ...out });
      expect(ran).toMatchObject({ status: 1, stderr: "" });
      const location = readJson(out.json).steps.find((step) => step.name === "getLocation");
      expect(location?.differences).toContainEqual({
        path: "body.__proto__",
        kind: "only-target",
        target: "object",
        mock: null,
      });
      expect(readFileSync(out.record, "utf8")).toContain('"__proto__": {');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const replayed = await verify({ replay: out.record, json: join(temp.dir, "proto-replayed.json") });
      expect(replayed.status).toBe(1);
      const differences = (file: string) =>
        readJson(file).steps.map(({ name, differences }) => ({ name, differences }));
      expect(differences(join(temp.dir, "proto-replayed.json"))).toEqual(differences(out.json));
    });
  });

  describe("redirects: refused, reported with their status and Location", () => {
    const elsewhere = () => hostile((_req, res) => void res.writeHead(200).end("{}"), undefined);
    const redirectTo = (status: number, where: (path: string) => string, only?: string) =>
      hostile(async (req, res) => {
        if (only === undefined || req.path.startsWith(only))
          return void res.writeHead(status, { location: where(req.path) }).end();
        const up = await req.upstream();
        answerWith(res, up, up.text);
      });

    it.each([307, 302])(
      "%i to another port on the token step: no request goes there, the run stops (exit 3)",
      async (status) => {
        const other = await elsewhere();
        const target = await redirectTo(status, (path) => `${other.url}${path}`);
        const json = join(temp.dir, `redirect-${status}.json`);
        const ran = await verify({ config: writeConfig(temp.dir, target.url), json });
        expect(ran.status).toBe(3);
        expect(other.seen).toEqual([]);
        expect(target.seen).toHaveLength(1);
        expect(ran.stderr).toContain(
          `stopped: the target answered the token request with a redirect (${status} to ${other.url}/v1/oauth/token); verify follows no redirect`,
        );
        expect(readJson(json).steps[0]?.differences).toEqual([
          { path: "status", kind: "redirect", target: `${status} to ${other.url}/v1/oauth/token`, mock: 200 },
        ]);
        expect(ran.stdout).toMatch(
          /generateToken +generateToken +\d+ +200 +DIFFERS +redirected \(verify follows no redirect\)/,
        );
      },
    );

    it("a redirect loop (every answer a 307 to itself) stops at once, in words", async () => {
      const target = await redirectTo(307, (path) => path);
      const started = Date.now();
      const ran = await verify({ config: writeConfig(temp.dir, target.url) });
      expect(ran.status).toBe(3);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(ran.stderr).toContain("with a redirect (307 to /v1/oauth/token)");
    });

    it("a later step redirected to another host: that step differs, its Location without the password in it", async () => {
      const other = await elsewhere();
      const away = `http://someone:${SECRETS.appToken}@127.0.0.1:${other.port}`;
      const target = await redirectTo(301, (path) => `${away}${path}`, "/v1/locations/");
      const json = join(temp.dir, "redirect-later.json");
      const ran = await verify({ config: writeConfig(temp.dir, target.url), json });
      expect(ran.status).toBe(1);
      expect(other.seen).toEqual([]);
      const redirected = readJson(json).steps.filter((step) => step.differences[0]?.kind === "redirect");
      expect(redirected.map((step) => step.name)).toEqual([
        "getLocation",
        "location-unknown",
        "location-no-credentials",
      ]);
      expect(redirected[0]?.differences[0]?.target).toBe(
        `301 to http://127.0.0.1:${other.port}/v1/locations/<objects.location_id>`,
      );
      expect(`${ran.stdout}${readFileSync(json, "utf8")}`).not.toContain(SECRETS.appToken);
    });
  });

  describe("answers without bounds: the run stops at the cap (exit 3), saying why", () => {
    /** Answers the token step with `send`; the run stops there. */
    const onToken = (send: (res: ServerResponse) => void) =>
      hostile(async (req, res) => {
        if (req.path === "/v1/oauth/token") return send(res);
        const up = await req.upstream();
        answerWith(res, up, up.text);
      });

    async function stops(target: Hostile, reason: string, flags: { maxAnswerBytes?: number } = {}) {
      const out = files(`bounded-${open.length}`);
      writeFileSync(out.record, "an earlier recording\n");
      const started = Date.now();
      const ran = await verify({ config: writeConfig(temp.dir, target.url), ...out, ...flags });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(ran.status).toBe(3);
      expect(ran.stderr).toContain(`stopped: ${reason}`);
      expect(ran.stderr).toContain(`${out.record} not written: the run did not reach its end`);
      expect(readJson(out.json).stopped).toBe(reason);
      expect(readFileSync(out.record, "utf8")).toBe("an earlier recording\n");
      return ran;
    }

    it("a 100 MB answer: read up to 8 MiB, no further", async () => {
      const target = await onToken((res) => {
        res.writeHead(200, { "content-type": "application/json" });
        stream(res, Buffer.from(`"${"x".repeat(64 * 1024 - 2)}"`), 100 * MIB);
      });
      await stops(
        target,
        "the answer to POST /v1/oauth/token is more than 8388608 bytes (--max-answer-bytes): verify reads no further",
      );
      expect(target.bytesSent()).toBeLessThan(32 * MIB);
    });

    it("an endless answer, with --max-answer-bytes 1 MiB", async () => {
      const target = await onToken((res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        stream(res, Buffer.alloc(16 * 1024, "y"));
      });
      await stops(
        target,
        "the answer to POST /v1/oauth/token is more than 1048576 bytes (--max-answer-bytes): verify reads no further",
        {
          maxAnswerBytes: MIB,
        },
      );
      expect(target.bytesSent()).toBeLessThan(24 * MIB);
    });

    it("a gzip answer that inflates without end: its decoded size is capped too", async () => {
      const target = await onToken((res) => {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        const gzip = createGzip();
        gzip.pipe(res);
        stream(gzip as unknown as ServerResponse, Buffer.alloc(1024 * 1024));
      });
      await stops(
        target,
        "the answer to POST /v1/oauth/token decodes to more than 8388608 bytes (--max-answer-bytes): verify reads no further",
      );
      expect(target.bytesSent()).toBeLessThan(MIB);
    });

    it("an answer nested 100,000 levels deep is not parsed", async () => {
      const target = await onToken((res) => {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
      });
      await stops(
        target,
        "the answer to POST /v1/oauth/token nests deeper than 64 levels: verify does not read it",
      );
    });

    it("an encoding verify cannot read", async () => {
      const target = await onToken((res) => {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "zstd" }).end("(z)");
      });
      await stops(
        target,
        'the answer to POST /v1/oauth/token is encoded as "zstd", which verify cannot read',
      );
    });
  });

  describe("each failure in words, with its exit status", () => {
    it("a token that is not valid UTF-8: the target is unusable (exit 3)", async () => {
      const target = await hostile(async (req, res) => {
        const up = await req.upstream();
        if (req.path !== "/v1/oauth/token") return answerWith(res, up, up.text);
        const [head, tail] = up.text.split(/"access_token":"[^"]*"/);
        const raw = Buffer.concat([
          Buffer.from(`${head}"access_token":"ab`),
          Buffer.from([0xff, 0xfe]),
          Buffer.from(`cd"${tail}`),
        ]);
        res.writeHead(200, { "content-type": "application/json", "content-length": raw.length }).end(raw);
      });
      const ran = await verify({ config: writeConfig(temp.dir, target.url) });
      expect(ran.status).toBe(3);
      expect(ran.stderr).toContain(
        "stopped: the target answered the token step with an access_token that holds characters an Authorization header cannot carry",
      );
      expect(target.seen).toHaveLength(1);
    });

    it("user:pw@ in target.url is a config error (exit 2): nothing sent, the password never shown", async () => {
      const target = await hostile((_req, res) => void res.writeHead(500).end());
      const config = writeConfig(temp.dir, `http://user:${SECRETS.appToken}@127.0.0.1:${target.port}`);
      const ran = await verify({ config });
      expect(ran).toMatchObject({ status: 2, stdout: "" });
      expect(ran.stderr).toContain("target.url: must not hold a user name or password (user:pw@)");
      expect(ran.stderr).not.toContain(SECRETS.appToken);
      expect(target.seen).toEqual([]);
    });

    it("a key pair no header can carry is a config error naming the variable, not its value", async () => {
      const ran = await verify(
        { config: writeConfig(temp.dir, "http://127.0.0.1:1", { secretsInFile: false }) },
        { LOYALTY_MOCK_VERIFY_APP_ID: SECRETS.appId, LOYALTY_MOCK_VERIFY_APP_TOKEN: "tøken\n" },
      );
      expect(ran).toEqual({
        status: 2,
        stdout: "",
        stderr:
          "loyalty-mock verify: LOYALTY_MOCK_VERIFY_APP_TOKEN holds a character an HTTP header cannot carry (only visible ASCII)\n",
      });
    });
  });

  describe("output files", () => {
    it("a path that cannot be written is refused before the first call (exit 2)", async () => {
      const target = await hostile((_req, res) => void res.writeHead(500).end());
      const config = writeConfig(temp.dir, target.url);
      const missing = await verify({ config, json: join(temp.dir, "no-such-folder", "report.json") });
      expect(missing.status).toBe(2);
      expect(missing.stderr).toMatch(
        /cannot write --json .*report\.json: the folder .*no-such-folder does not exist/,
      );
      mkdirSync(join(temp.dir, "a-folder"));
      const folder = await verify({ config, record: join(temp.dir, "a-folder") });
      expect(folder.stderr).toMatch(/cannot write --record .*a-folder: it is a folder/);
      const same = await verify({ config, record: config });
      expect(same.stderr).toContain(`--record ${config} is the file of --config: give another file`);
      expect(target.seen).toEqual([]);
    });

    it("the report and the recording are 0600, an earlier 0644 file included", async () => {
      const out = files("modes");
      writeFileSync(out.json, "{}");
      chmodSync(out.json, 0o644);
      const ran = await verify({
        config: writeConfig(temp.dir, standIn.url, { allowWrites: false }),
        ...out,
      });
      expect(ran.status).toBe(0);
      expect(statSync(out.json).mode & 0o777).toBe(0o600);
      expect(statSync(out.record).mode & 0o777).toBe(0o600);
    });

    it("a replay that compares no step exits 2, saying so, whatever the table shows", async () => {
      const out = files("renamed");
      await verify({ config: writeConfig(temp.dir, standIn.url, { allowWrites: false }), ...out });
      const recording = readJson<{ exchanges: { step: string }[] }>(out.record);
      for (const exchange of recording.exchanges) exchange.step = `renamed-${exchange.step}`;
      writeFileSync(out.record, JSON.stringify(recording));
      const ran = await verify({ replay: out.record });
      expect(ran.status).toBe(2);
      expect(ran.stdout).toContain(`0 matched, 0 differed, ${STEPS.length} skipped`);
      expect(recording.exchanges).toHaveLength(STEPS.length);
      expect(ran.stderr).toBe(
        `loyalty-mock verify: nothing was compared: all ${STEPS.length} steps were skipped (${STEPS.length} not in the recording); a run that compares nothing proves nothing\n`,
      );
    });
  });
});
