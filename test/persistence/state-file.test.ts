import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKey, deleteKey } from "../../src/domain/auth/keys.js";
import { issueToken } from "../../src/domain/auth/tokens.js";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { createRegistry, type ProjectRegistry } from "../../src/index.js";
import {
  readStateFile,
  restoreProjects,
  StateFileError,
  serializeState,
} from "../../src/persistence/state-file.js";
import { buildWorld } from "../helpers/world.js";

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-mock-state-file-"));
  file = join(dir, "state.json");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function restored(text: string): ProjectRegistry {
  writeFileSync(file, text);
  const saved = readStateFile(file);
  if (!saved) throw new Error("no state file");
  const registry = createRegistry({ clock: buildWorld().clock });
  restoreProjects(registry, saved, file);
  return registry;
}

function startError(text: string): string {
  try {
    restored(text);
  } catch (error) {
    if (error instanceof StateFileError) return error.message;
    throw error;
  }
  throw new Error("the state file was accepted, but should not have been");
}

describe("the state file", () => {
  it("holds every project's fixtures and current state, and restores both", () => {
    const world = buildWorld();
    const token = issueToken(world.registry, world.demo, world.demo.apiKeys.get("demo-app-id"), {
      grant_type: "client_credentials",
      scope: "api",
    });
    world.other.clock.advance(120);
    const text = serializeState(world.registry);
    expect(JSON.parse(text)).toMatchObject({
      format: "loyalty-mock-state",
      version: 1,
      saved_at: "2026-11-20T10:00:00.000Z",
    });

    const registry = restored(text);
    expect(registry.list().map((project) => project.id)).toEqual(["demo", "other"]);
    for (const project of [world.demo, world.other]) {
      expect(exportProject(registry.get(project.id))).toEqual(exportProject(project));
      expect(registry.fixturesOf(project.id)).toEqual(world.registry.fixturesOf(project.id));
    }
    expect(registry.projectForToken(token.access_token)).toBe(registry.get("demo"));
    expect(registry.projectForAppId("other-app-id")).toBe(registry.get("other"));

    registry.reset("demo");
    expect(registry.get("demo").tokens.size).toBe(0);
  });

  it("restores a key that moved to another project after its own was deleted", () => {
    const world = buildWorld();
    deleteKey(world.registry, world.demo, "demo-readonly-app-id");
    createKey(world.registry, world.other, { app_id: "demo-readonly-app-id", app_token: "moved" });
    const registry = restored(serializeState(world.registry));
    expect(registry.projectForAppId("demo-readonly-app-id")).toBe(registry.get("other"));
    expect(registry.fixturesOf("demo").api_keys.map((key) => key.app_id)).toContain("demo-readonly-app-id");
  });

  it("is absent at first: nothing to restore", () => {
    expect(readStateFile(file)).toBeUndefined();
  });

  const valid = () => JSON.parse(serializeState(buildWorld().registry));

  // Each row is a file the server must refuse to start from, with a message naming the file and the spot.
  const BAD: { name: string; text: () => string; message: RegExp }[] = [
    { name: "an empty file", text: () => "", message: /state\.json: \$: not valid JSON/ },
    {
      name: "a truncated file",
      text: () => serializeState(buildWorld().registry).slice(0, 5000),
      message: /state\.json: (line 1 column \d+|\$): not valid JSON/,
    },
    {
      name: "another file format",
      text: () => JSON.stringify({ project: { id: "demo" } }),
      message:
        /state\.json: \$\.format: should be loyalty-mock-state; this is not a state file of the server$/,
    },
    {
      name: "a newer version",
      text: () => JSON.stringify({ ...valid(), version: 2 }),
      message: /state\.json: \$\.version: should be equal to one of the allowed values: 1/,
    },
    {
      name: "a broken document",
      text: () => {
        const state = valid();
        state.projects[1].state.locations[0].shape.type = "square";
        return JSON.stringify(state);
      },
      message: /state\.json: \$\.projects\[1\]\.state\.locations\[0\]\.shape\.type: /,
    },
    {
      name: "a project twice",
      text: () => {
        const state = valid();
        state.projects.push(state.projects[0]);
        return JSON.stringify(state);
      },
      message: /state\.json: \$\.projects\[2\]: A project with id demo exists already/,
    },
    {
      name: "a state of another project than its fixtures",
      text: () => {
        const state = valid();
        state.projects[0].state = state.projects[1].state;
        return JSON.stringify(state);
      },
      message: /state\.json: \$\.projects\[0\]\.state\.project\.id: should be demo/,
    },
  ];

  for (const row of BAD)
    it(`refuses ${row.name}, naming the file`, () => {
      expect(startError(row.text())).toMatch(row.message);
    });

  it("refuses a file it cannot read, naming the file", () => {
    mkdirSync(file);
    expect(() => readStateFile(file)).toThrow(new StateFileError(file, "cannot be read (EISDIR)"));
  });
});
