import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../src/index.js";
import { blocksOf, isSession, PAGES } from "../helpers/doc-blocks.js";
import {
  commandsOf,
  portsFor,
  runPage,
  runTranscript,
  Session,
  serves,
  startsServer,
} from "../helpers/doc-shell.js";
import { build } from "../helpers/process.js";

/**
 * The blocks of the user pages that run (docs/internals/doc-blocks.md): the shell sessions, each line in bash with
 * curl and the built command (`npx loyalty-mock`), and the transcripts (`$ loyalty-mock ...` and what it prints).
 * They spawn processes for every line, so they are here rather than in the fast tier (issue 47: 6.5 s of its time,
 * mostly waiting on those processes); test/docs/doc-blocks.test.ts checks that every block is accounted for.
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

describe("the shell sessions of the pages, against the server npm start gives", () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  for (const page of PAGES.filter(
    (candidate) => blocksOf(candidate).some(isSession) && !startsServer(candidate),
  ))
    it(`${page}: every command does what the page shows`, async () => {
      const ports = await portsFor();
      servers.push(await startServer({ port: ports.get(3000), seed: "docs" }));
      const session = new Session({ ports });
      try {
        expect(await runPage(page, session)).toEqual([]);
      } finally {
        await session.close();
      }
    });

  // Issue 34: on 0.8.0 the named card of operations.md was already taken after the demo's calls, unsaid.
  it("docs/reference/operations.md holds on a server the demo of docs/guide/demos.md has used", async () => {
    const ports = await portsFor();
    servers.push(await startServer({ port: ports.get(3000), seed: "docs" }));
    const session = new Session({ ports });
    try {
      const demo = blocksOf("docs/guide/demos.md").filter(isSession).flatMap(commandsOf);
      for (const command of demo.filter((candidate) => !serves(candidate.text)))
        expect((await session.run(command.text)).exit).toBe(0);
      expect(await runPage("docs/reference/operations.md", session)).toEqual([]);
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
