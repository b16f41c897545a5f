import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blocksOf, isSession, PAGES } from "../helpers/doc-blocks.js";
import { portsFor, runPage, runTranscript, Session, startsServer } from "../helpers/doc-shell.js";
import { build } from "../helpers/process.js";

/**
 * The blocks of the user pages that need the built command (docs/internals/doc-blocks.md): the shell sessions of
 * the pages that start the server themselves (`npx loyalty-mock`), and the transcripts (`$ loyalty-mock ...` and
 * what it prints). test/docs/doc-blocks.test.ts runs the others and checks that every block is accounted for.
 */
const SEED = { LOYALTY_MOCK_SEED: "docs", LOYALTY_MOCK_LOG_LEVEL: "silent" };

beforeAll(() => build());

describe("the shell sessions of the pages that start the server", () => {
  for (const page of PAGES.filter(
    (candidate) => blocksOf(candidate).some(isSession) && startsServer(candidate),
  ))
    it(`${page}: every command does what the page shows`, { timeout: 120_000 }, async () => {
      const session = new Session({ ports: await portsFor(), env: SEED });
      try {
        expect(await runPage(page, session)).toEqual([]);
      } finally {
        await session.close();
      }
    });
});

describe("the transcripts", () => {
  let session: Session;
  beforeAll(async () => {
    session = new Session({ ports: await portsFor() });
  });
  afterAll(() => session.close());

  for (const page of PAGES)
    for (const block of blocksOf(page).filter((candidate) => candidate.marker?.kind === "transcript"))
      it(`${page}:${block.line}: each command prints what the page shows`, async () => {
        expect(await runTranscript(block, session)).toEqual([]);
      });
});
