import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, normalize, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { VENDOR_FILES } from "../../scripts/contract/sources.js";
import { BUILT_FILES, checkDigest, fetchContract } from "../../scripts/contract-fetch.js";
import { CONTRACT_CACHE_DIR, SHARED_CONTRACT_DIR, sharedContractPath } from "./contract-files.js";
import { fetchScriptTest } from "./contract-skips.js";
import { closedPort } from "./receiver.js";

/**
 * `npm run contract:fetch` (scripts/contract-fetch.ts). Machines here reach no vendor repository, so the download
 * path is tested against a server on 127.0.0.1 that serves the vendor's files, as published, from
 * CONTRACT_SOURCE_DIR (or ../shared/contract/vendor-source/ beside the repository): the same files the script reads
 * from that folder when the variable is set. What it builds must equal ../shared/contract/ where both are present.
 */

const sourceDir = resolve(process.env.CONTRACT_SOURCE_DIR || join(SHARED_CONTRACT_DIR, "vendor-source"));
const haveSource = Object.values(VENDOR_FILES).every((file) =>
  existsSync(join(sourceDir, file.commit, file.path)),
);
const haveShared = (Object.keys(BUILT_FILES) as (keyof typeof BUILT_FILES)[]).every((kind) =>
  existsSync(sharedContractPath(kind)),
);
/**
 * These need the vendor's files themselves, which only CI's shared folder (or a CONTRACT_SOURCE_DIR) holds: skipped
 * elsewhere, as tests of the fetch script rather than contract checks of the server, and counted on a line of their
 * own at the end of the run (test/contract-skips.ts).
 */
const withSource = fetchScriptTest(haveSource);
const againstShared = fetchScriptTest(haveSource && haveShared);

/** Folders of one test, removed after it; `kept` ones (the builds the tests share) after the file. */
const temps: string[] = [];
const kept: string[] = [];
const temp = (list = temps): string => {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-mock-fetch-"));
  list.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const dir of kept.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));

/** Serves `<root>/<commit>/<path>` as the vendor's raw file host does; anything else is 404. */
function serve(root: string): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push(path);
    const file = normalize(join(root, path));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end("404: Not Found");
      return;
    }
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(readFileSync(file));
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }),
    ),
  );
}

describe("contract:fetch from the vendor's files", () => {
  let built: Record<keyof typeof BUILT_FILES, string>;
  let downloaded: Record<keyof typeof BUILT_FILES, string>;
  let mirror: Awaited<ReturnType<typeof serve>> | undefined;

  beforeAll(async () => {
    if (!haveSource) return;
    built = await fetchContract({ sourceDir, outDir: temp(kept) });
    mirror = await serve(sourceDir);
    downloaded = await fetchContract({ baseUrl: `${mirror.url}/`, outDir: temp(kept) });
  }, 120_000);
  afterAll(() => new Promise<void>((done) => (mirror ? mirror.server.close(() => done()) : done())));

  it(
    "builds the six-operation contract whose paths and components are ../shared/contract's",
    againstShared,
    () => {
      const ours = json(built.sixOperations);
      const shared = json(join(SHARED_CONTRACT_DIR, BUILT_FILES.sixOperations));
      expect(Object.keys(ours.paths)).toEqual(Object.keys(shared.paths));
      expect(ours.paths).toEqual(shared.paths);
      expect(ours.components).toEqual(shared.components);
    },
  );

  it(
    "writes the webhook contract unchanged, and the operations list equal to ../shared/contract's",
    againstShared,
    () => {
      // Byte for byte (Buffer.equals: a deep equality walks 850 KB one byte at a time).
      expect(
        readFileSync(built.webhooks).equals(readFileSync(join(SHARED_CONTRACT_DIR, BUILT_FILES.webhooks))),
      ).toBe(true);
      const ours = json(built.vendorOperations);
      const shared = json(join(SHARED_CONTRACT_DIR, BUILT_FILES.vendorOperations));
      expect(ours.operations).toEqual(shared.operations);
      expect(ours.count).toBe(ours.operations.length);
    },
  );

  it(
    "writes the Loyalty v2 beta's file unchanged, as ../shared/contract/vendor-source has it",
    againstShared,
    () => {
      expect(readFileSync(built.loyaltyV2).equals(readFileSync(sharedContractPath("loyaltyV2")))).toBe(true);
    },
  );

  it(
    "downloads each pinned file once as <base>/<commit>/<path>, and builds the same bytes",
    withSource,
    () => {
      expect(mirror?.requests.sort()).toEqual(
        Object.values(VENDOR_FILES)
          .map((file) => `/${file.commit}/${file.path}`)
          .sort(),
      );
      for (const key of Object.keys(BUILT_FILES) as (keyof typeof BUILT_FILES)[])
        expect(readFileSync(downloaded[key]).equals(readFileSync(built[key])), key).toBe(true);
    },
  );

  it("fails on a changed byte, naming the file, and writes nothing", withSource, async () => {
    const copy = temp();
    cpSync(sourceDir, copy, { recursive: true });
    const events = join(copy, VENDOR_FILES.events.commit, VENDOR_FILES.events.path);
    const bytes = readFileSync(events);
    bytes[100] = (bytes[100] as number) ^ 1;
    writeFileSync(events, bytes);
    const out = temp();
    await expect(fetchContract({ sourceDir: copy, outDir: out })).rejects.toThrow(
      new RegExp(
        `documentation/openapi/events\\.json at 65c33a7a has SHA-256 [0-9a-f]{64}, not the pinned ${VENDOR_FILES.events.sha256}`,
      ),
    );
    expect(readdirSync(out)).toEqual([]);
  });
});

describe("contract:fetch, what fails", () => {
  it("a file whose digest is not the pinned one", () => {
    expect(() => checkDigest(VENDOR_FILES.oauth, Buffer.from("{}"))).toThrow(
      "documentation/openapi/oauth.json at 65c33a7a has SHA-256 44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a, not the pinned",
    );
    expect(() => checkDigest(VENDOR_FILES.oauth, Buffer.from("{}"))).toThrow(VENDOR_FILES.oauth.sha256);
  });

  it("a source folder without the file, naming the path it read", async () => {
    const empty = temp();
    await expect(fetchContract({ sourceDir: empty, outDir: temp() })).rejects.toThrow(
      `cannot read ${join(empty, VENDOR_FILES.production.commit, VENDOR_FILES.production.path)} (ENOENT)`,
    );
  });

  it("a host that answers 404, naming the URL", async () => {
    const mirror = await serve(temp());
    try {
      await expect(fetchContract({ baseUrl: mirror.url, outDir: temp() })).rejects.toThrow(
        `${mirror.url}/${VENDOR_FILES.production.commit}/${VENDOR_FILES.production.path} answered 404`,
      );
    } finally {
      await new Promise((done) => mirror.server.close(done));
    }
  });

  it("a host that cannot be reached, pointing to CONTRACT_SOURCE_DIR", async () => {
    const { host, port } = await closedPort();
    const base = `http://${host}:${port}`;
    await expect(fetchContract({ baseUrl: base, outDir: temp() })).rejects.toThrow(
      `cannot download ${base}/${VENDOR_FILES.production.commit}/${VENDOR_FILES.production.path} (ECONNREFUSED). Without network, set CONTRACT_SOURCE_DIR`,
    );
  });
});

describe("the .contract/ folder beside ../shared/contract", () => {
  const cached = Object.values(BUILT_FILES).every((name) => existsSync(join(CONTRACT_CACHE_DIR, name)));
  it(
    "holds what ../shared/contract holds, when both are there",
    fetchScriptTest(cached && haveShared),
    () => {
      const read = (dir: string, name: string) => json(join(dir, name));
      const ours = read(CONTRACT_CACHE_DIR, BUILT_FILES.sixOperations);
      const shared = read(SHARED_CONTRACT_DIR, BUILT_FILES.sixOperations);
      expect(ours.paths).toEqual(shared.paths);
      expect(ours.components).toEqual(shared.components);
      expect(read(CONTRACT_CACHE_DIR, BUILT_FILES.webhooks)).toEqual(
        read(SHARED_CONTRACT_DIR, BUILT_FILES.webhooks),
      );
      expect(read(CONTRACT_CACHE_DIR, BUILT_FILES.vendorOperations).operations).toEqual(
        read(SHARED_CONTRACT_DIR, BUILT_FILES.vendorOperations).operations,
      );
    },
  );
});
