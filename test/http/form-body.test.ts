import type { Express } from "express";
import fc from "fast-check";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { FORM_FIELD_LIMIT } from "../../src/http/input/body.js";
import { validateAny } from "../helpers/contract.js";
import { served } from "../helpers/http.js";
import { NO_TRICKS, SPEED_TRICK_VARIANTS } from "../helpers/speed-tricks.js";
import { buildWorld, DEMO_KEYS } from "../helpers/world.js";

/**
 * A plain form body on the token endpoint is read by the form reader speed trick (http/fast/form-reader.ts)
 * instead of body-parser. The two must not be told apart: every body, valid or not, gets the same answer (status,
 * headers, key, message, details; a token's own values aside) whichever reads it. The same bytes go to an app with
 * every trick, each one switched off, and none, and to an app without any speed trick.
 */

const TOKEN = "/v1/oauth/token";
const FORM = "application/x-www-form-urlencoded";

async function answer(app: Express, type: string, body: string) {
  const res = await request(await served(app))
    .post(TOKEN)
    .set(DEMO_KEYS)
    .set("Content-Type", type)
    .send(Buffer.from(body));
  validateAny("POST", TOKEN, res.status, res.body);
  // A token's own values are new on every call; everything else must match.
  const { request_id: _id, access_token: _token, ...rest } = res.body as Record<string, unknown>;
  return {
    status: res.status,
    contentType: res.headers["content-type"],
    body: rest,
  };
}

const many = (count: number) =>
  ["grant_type=client_credentials", ...Array.from({ length: count - 1 }, (_, i) => `f${i}=x`)].join("&");

const CASES = [
  "grant_type=client_credentials",
  "grant_type=client_credentials&scope=api",
  "scope=api&grant_type=client_credentials",
  "grant_type=client%5Fcredentials",
  "grant_type=client+credentials",
  "grant_type=client_credentials&scope=a+b%20c",
  "grant_type=%E0%A4%A",
  "grant_type=%",
  "grant_type=client_credentials&grant_type=client_credentials",
  "grant_type=a&grant_type=b",
  "grant_type[]=client_credentials",
  "grant_type%5B%5D=client_credentials",
  "a[b]=c&grant_type=client_credentials",
  "__proto__=x&grant_type=client_credentials",
  "constructor=x&grant_type=client_credentials",
  "hasOwnProperty=x&grant_type=client_credentials",
  "=",
  "&&",
  "&grant_type=client_credentials&",
  "grant_type",
  "grant_type=",
  "grant_type==client_credentials",
  "\uFEFFgrant_type=client_credentials",
  "\uFEFF",
  "%C3%A9=%C3%BC&grant_type=client_credentials",
  "é=ü&grant_type=client_credentials",
  '{"grant_type":"client_credentials"}',
  many(FORM_FIELD_LIMIT),
  many(FORM_FIELD_LIMIT + 1),
];

describe.each(SPEED_TRICK_VARIANTS)(
  "with %s, the plain form reader answers as body-parser does",
  (_name, tricks) => {
    const { app } = buildWorld({ speedTricks: tricks, defaults: { tokenLimit: 100_000 } });
    const ordinary = buildWorld({ speedTricks: NO_TRICKS, defaults: { tokenLimit: 100_000 } }).app;

    async function expectSameAnswer(body: string, type = FORM): Promise<void> {
      const fast = await answer(app, type, body);
      expect(fast, JSON.stringify(body)).toEqual(await answer(ordinary, type, body));
    }

    it.each(CASES)("%j", async (body) => {
      await expectSameAnswer(body);
    });

    it.each([
      `${FORM}; charset=utf-8`,
      `${FORM}; charset="UTF-8"`,
      `${FORM};charset=iso-8859-1`,
      `${FORM}; charset=koi8-r`,
    ])("with Content-Type %s", async (type) => {
      await expectSameAnswer("grant_type=client_credentials&scope=%C3%A9", type);
    });

    it("for generated bodies", async () => {
      const unit = fc.constantFrom(
        ..."ab_=&%+[]5BDE0A9 \u00e9".split(""),
        "%5B",
        "%5D",
        "%E0",
        "%20",
        "grant_type",
        "client_credentials",
        "scope",
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(unit, { maxLength: 16 }).map((parts) => parts.join("")),
          async (body) => {
            await expectSameAnswer(body);
          },
        ),
        { numRuns: tricks === undefined || Object.keys(tricks).length === 0 ? 60 : 10 },
      );
    });
  },
);
