import type { Logger } from "pino";
import type { Caps } from "../domain/caps.js";
import type { ProjectDocument } from "../domain/projects/project-document.js";
import type { V2AuthMode } from "../domain/projects/settings.js";
import type { AllowedHosts } from "../domain/webhooks/target.js";
import type { CorsOrigins } from "../http/entrance/cors.js";
import type { SpeedTricks } from "../http/fast/index.js";
import type { InputLimits } from "../http/input/limits.js";
import type { ConnectionLimits } from "../http/server/http-server.js";
import type { StateSyncMode } from "../persistence/state-writer.js";
import type { Clock } from "../platform/clock.js";

/** Each option left out (or undefined) takes its default from the settings table, config/settings.ts. */
export interface StartOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** A fixtures folder; the embedded default dataset when absent. */
  fixturesDir?: string;
  /** Project documents to serve instead of reading a folder. */
  documents?: ProjectDocument[];
  /**
   * Keeps every project's state in this file across restarts: restored from it at start when it exists (the
   * fixtures are then not read), saved to it as the state changes and on close.
   */
  stateFile?: string;
  /** `interval`: changes saved together, at most `stateSaveIntervalMs` later; `always`: before the response. */
  stateSync?: StateSyncMode;
  /** Longest a change waits to be saved in `interval` mode. */
  stateSaveIntervalMs?: number;
  /** A new snapshot is written once the change log passes this many bytes and the last snapshot's size. */
  stateCompactBytes?: number;
  logger?: Logger;
  clock?: Clock;
  /**
   * Every value the server makes up (ids, card codes, tokens, request ids, webhook ids and secrets, created
   * projects' ids and keys) follows from this seed, per project: the same requests give the same answers.
   * Predictable by design: for tests only.
   */
  seed?: string;
  /** Every project's clock starts at this ISO 8601 instant and stands still until moved or unfrozen. */
  freezeClock?: string;
  bodyLimit?: number;
  tokenGraceSeconds?: number;
  /** Most live OAuth tokens per project. */
  tokenLimit?: number;
  /** API calls per minute of its clock each project may make unless it sets its own rate_limit; 0: none. */
  rateLimitPerMinute?: number;
  v2AuthMode?: V2AuthMode;
  trustProxy?: boolean | string | number;
  /** Browser origins allowed to call (CORS): `*` for any, or a list of exact origins. */
  corsOrigins?: CorsOrigins;
  /** When set, every control call (/__mock) must send it in X-Mock-Admin-Token. */
  adminToken?: string;
  /** Requests each project's journal keeps. */
  journalSize?: number;
  /** Longest close() waits for in-flight requests before cutting their connections. */
  drainTimeoutMs?: number;
  /** Request head size and slow-client timeouts (docs/reference/limits.md). */
  connectionLimits?: Partial<ConnectionLimits>;
  /** JSON depth, string length and metadata size limits of request bodies. */
  inputLimits?: Partial<InputLimits>;
  /** Most projects, and most keys, fault rules, events and card assignments per project. */
  caps?: Partial<Caps>;
  /** Longest one webhook delivery may take. */
  webhookTimeoutMs?: number;
  /** Webhook deliveries that may wait per endpoint behind the one in flight. */
  webhookQueueLimit?: number;
  /** Webhook deliveries each project's outbox keeps. */
  webhookOutboxSize?: number;
  /** Hosts webhook URLs may name besides loopback, or `*` for any. */
  webhookHosts?: AllowedHosts;
  /** Speed tricks to switch off; all run by default (createApp's option of the same name). */
  speedTricks?: SpeedTricks;
  /**
   * How long a control call's build of a project (a reset, a restore, an import, a new project) runs before other
   * requests get a turn, in ms: 5 by default; 0 gives them one after every few hundred records (for tests).
   */
  sliceMs?: number;
}
