import type { Project } from "../../../domain/projects/project.js";

/** A scenario shipped in the package, as the control API lists it: its name, and what the dashboard shows of it. */
export interface ShippedScenario {
  name: string;
  title: string;
  description?: string | undefined;
  /** How many steps it has. */
  steps: number;
}

/** One play as the board starts it: where the server answers, in which project with which key, at what pace. */
export interface PlayRun {
  /** The server's base URL, without a trailing slash. */
  url: string;
  projectId: string;
  keys: { appId: string; appToken: string };
  /** Sent to the control API (the clock steps) when the server has one. */
  adminToken?: string | undefined;
  /** Pauses last their seconds divided by this. */
  speed: number;
  /** Told each step as it happens: its number (from 1) and a line saying what happened. */
  print(line: string, step: number): void;
  /** Stops the play where it is: between steps, in a pause or in a call. Its reason ends the failure's message. */
  signal?: AbortSignal;
}

export type PlayOutcome = { ok: true; steps: number } | { ok: false; step: number; message: string };

/**
 * The play client (src/clients/play/) as the Play button uses it: the scenarios shipped in the package, and a
 * play of one of them through the public operations. The HTTP layer sits under the clients and imports none of
 * them: whoever builds the app hands one in (server.ts, the library's createApp); an app built without one lists
 * no scenario and plays none.
 */
export interface ScenarioPlayer {
  shipped(): readonly ShippedScenario[];
  play(name: string, run: PlayRun): Promise<PlayOutcome>;
}

/** One play of a scenario the dashboard started: what it printed so far, and how it ended. */
export interface PlayRecord {
  object: "play";
  id: number;
  project_id: string;
  scenario: string;
  title: string;
  speed: number;
  status: "running" | "done" | "failed";
  steps: number;
  played: number;
  lines: string[];
  failure: string | null;
  started_at: string;
}

/** Plays kept per project: the newest few, enough for the page to show how the last ones went. */
const KEPT = 10;

/** Why a play still running ends when the server closes; its failure says so. */
const CLOSING = "the server is closing";

/**
 * The plays the control API started (the dashboard's Play button): each runs in the background, calling this very
 * server at the address the request that started it reached, through the public operations as `loyalty-mock play`
 * does, with the project's first active key. `changed` tells the live feed of each step. `stop()` (the server's
 * close) ends them where they are, a pause or a call, so that none outlives the server or holds its process.
 */
export class PlayBoard {
  readonly #plays = new Map<string, PlayRecord[]>();
  readonly #stopping = new AbortController();
  readonly #running = new Set<Promise<void>>();
  #next = 1;

  list(projectId: string): PlayRecord[] {
    return [...(this.#plays.get(projectId) ?? [])].reverse();
  }

  start(
    project: Project,
    play: {
      scenario: ShippedScenario;
      player: ScenarioPlayer;
      speed: number;
      url: string;
      adminToken: string | undefined;
    },
    changed: () => void,
  ): PlayRecord {
    const key = project.apiKeys.list().find((one) => one.status === "ACTIVE");
    const record: PlayRecord = {
      object: "play",
      id: this.#next++,
      project_id: project.id,
      scenario: play.scenario.name,
      title: play.scenario.title,
      speed: play.speed,
      status: "running",
      steps: play.scenario.steps,
      played: 0,
      lines: [],
      failure: null,
      started_at: new Date().toISOString(),
    };
    const kept = [...(this.#plays.get(project.id) ?? []), record].slice(-KEPT);
    this.#plays.set(project.id, kept);
    if (!key) {
      record.status = "failed";
      record.failure = `project ${project.id} has no active API key to play with`;
      return record;
    }
    const running = play.player
      .play(play.scenario.name, {
        url: play.url,
        projectId: project.id,
        keys: { appId: key.app_id, appToken: key.app_token },
        adminToken: play.adminToken,
        speed: play.speed,
        signal: this.#stopping.signal,
        print: (line, step) => {
          record.lines.push(line);
          record.played = step;
          changed();
        },
      })
      .then(
        (result) => {
          record.status = result.ok ? "done" : "failed";
          if (!result.ok) record.failure = result.message;
          changed();
        },
        (error: unknown) => {
          record.status = "failed";
          record.failure = (error as Error).message;
          changed();
        },
      );
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
    return record;
  }

  /** Stops every running play, and any started after; resolves once each has ended and said so. */
  async stop(): Promise<void> {
    this.#stopping.abort(CLOSING);
    await Promise.all(this.#running);
  }
}

const boards = new WeakMap<object, PlayBoard>();

/** Each registry's plays: the board lives as long as the server's registry, and no longer. */
export function playsOf(registry: object): PlayBoard {
  let board = boards.get(registry);
  if (!board) {
    board = new PlayBoard();
    boards.set(registry, board);
  }
  return board;
}

/** The server's close: stops the registry's running plays, if it has any; resolves once they have ended. */
export function stopPlays(registry: object): Promise<void> {
  return boards.get(registry)?.stop() ?? Promise.resolve();
}
