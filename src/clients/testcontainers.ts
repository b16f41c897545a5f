import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { AbstractStartedContainer, GenericContainer, type StartedTestContainer, Wait } from "testcontainers";
import type { Config } from "../config/settings.js";
import { ControlClient } from "./control-client.js";
import type { ProjectControl } from "./project-control.js";

/**
 * `loyalty-mock/testcontainers`: the image as a Testcontainers module for Node, as WireMock and LocalStack ship
 * theirs. `testcontainers` is an optional peer dependency: an application that imports this module installs it.
 *
 *     const mock = await new LoyaltyMockContainer("loyalty-mock").withSeed("tests").start();
 *     // mock.url, mock.appId, mock.appToken, mock.control, mock.project
 *     await mock.stop();
 */

/** Where the image listens inside the container (its LOYALTY_MOCK_PORT). */
const PORT = 3000;
/** Where withFixtures copies the folder to. */
const FIXTURES = "/fixtures";
const PREFIX = "LOYALTY_MOCK_";

/** The settings the container itself sets: where it listens and where its health check looks. */
type Fixed = "PORT" | "HOST" | "HEALTH_FILE";
const FIXED: readonly string[] = ["PORT", "HOST", "HEALTH_FILE"] satisfies Fixed[];

/** Settings by variable name (docs/reference/settings.md), as `docker run -e` sets them. */
export type LoyaltyMockSettings = Partial<
  Record<`${typeof PREFIX}${Exclude<keyof Config & string, Fixed>}`, string | number | boolean>
>;

export class LoyaltyMockContainer extends GenericContainer {
  #settings: Record<string, string> = {};

  /** The image's name; `loyalty-mock`, as `docker build -t loyalty-mock .` tags it, when absent. */
  constructor(image = "loyalty-mock") {
    super(image);
    this.withExposedPorts(PORT);
    // An admin token of its own unless given one: the control API is never open on the published port.
    this.#settings.ADMIN_TOKEN = randomBytes(16).toString("hex");
  }

  /** A folder of fixtures (docs/reference/fixtures.md), copied into the container, served instead of the demo's. */
  withFixtures(dir: string): this {
    this.withCopyDirectoriesToContainer([{ source: resolve(dir), target: FIXTURES }]);
    return this.withSettings({ LOYALTY_MOCK_FIXTURES_DIR: FIXTURES });
  }

  /** Every id, code, token and secret made from this seed: the same on every run. */
  withSeed(seed: string | number): this {
    return this.withSettings({ LOYALTY_MOCK_SEED: seed });
  }

  /** Every project's clock stands at this instant (`2026-01-01T09:00:00Z`, or `2026-01-01`) until moved. */
  withFrozenClock(instant: string): this {
    return this.withSettings({ LOYALTY_MOCK_FREEZE_CLOCK: instant });
  }

  /** The control API's token (a random one when not given): `adminToken` of the started container. */
  withAdminToken(token: string): this {
    return this.withSettings({ LOYALTY_MOCK_ADMIN_TOKEN: token });
  }

  /** Any other settings, by variable name: `{ LOYALTY_MOCK_RATE_LIMIT_PER_MINUTE: 0 }`. */
  withSettings(settings: LoyaltyMockSettings): this {
    for (const [name, value] of Object.entries(settings)) {
      const base = name.startsWith(PREFIX) ? name.slice(PREFIX.length) : name;
      if (!name.startsWith(PREFIX) || FIXED.includes(base))
        throw new Error(
          `LoyaltyMockContainer.withSettings: ${name} is not a setting it takes (a LOYALTY_MOCK_ variable other than ${FIXED.map((fixed) => PREFIX + fixed).join(", ")})`,
        );
      if (value !== undefined) this.#settings[base] = String(value);
    }
    return this;
  }

  /** Starts the container and resolves once the server answers its health check with the admin token. */
  override async start(): Promise<StartedLoyaltyMockContainer> {
    const adminToken = this.#settings.ADMIN_TOKEN as string;
    this.withEnvironment(
      Object.fromEntries(Object.entries(this.#settings).map(([base, value]) => [PREFIX + base, value])),
    );
    this.withWaitStrategy(
      Wait.forHttp("/__mock/health", PORT)
        .withHeaders({ "X-Mock-Admin-Token": adminToken })
        .forStatusCode(200),
    );
    const started = await super.start();
    try {
      const url = `http://${started.getHost()}:${started.getMappedPort(PORT)}`;
      const control = new ControlClient(url, { adminToken });
      return new StartedLoyaltyMockContainer(started, {
        url,
        adminToken,
        control,
        ...(await keyPair(control)),
      });
    } catch (error) {
      await started.stop();
      throw error;
    }
  }
}

interface Started {
  url: string;
  adminToken: string;
  control: ControlClient;
  projectId: string;
  appId: string;
  appToken: string;
}

/**
 * The default project: the first one the server lists (`demo` with the embedded data), and its first active key.
 * Fixtures without a project that has one are refused here, saying so, rather than handing out undefined keys.
 */
async function keyPair(control: ControlClient): Promise<Pick<Started, "projectId" | "appId" | "appToken">> {
  for (const project of await control.projects()) {
    const key = (await control.project(project.id).keys()).find(({ status }) => status === "ACTIVE");
    if (key) return { projectId: project.id, appId: key.app_id, appToken: key.app_token };
  }
  throw new Error("LoyaltyMockContainer: the fixtures have no project with an active API key");
}

/** A running loyalty-mock container: its URL, the default project's key pair, and the control API. */
export class StartedLoyaltyMockContainer extends AbstractStartedContainer {
  /** The server's base URL on the host, as in `http://localhost:32768`. */
  readonly url: string;
  readonly adminToken: string;
  /** The control API of the server: projects, and each project's clock, faults, journal, snapshots, outbox. */
  readonly control: ControlClient;
  /** The default project's id and key pair: the first project the server lists (`demo` with the embedded data). */
  readonly projectId: string;
  readonly appId: string;
  readonly appToken: string;
  /** The default project's control calls (`control.project(projectId)`). */
  readonly project: ProjectControl;

  constructor(started: StartedTestContainer, values: Started) {
    super(started);
    this.url = values.url;
    this.adminToken = values.adminToken;
    this.control = values.control;
    this.projectId = values.projectId;
    this.appId = values.appId;
    this.appToken = values.appToken;
    this.project = values.control.project(values.projectId);
  }

  /** The default project's key pair as the service's headers: `{ "X-App-Id": …, "X-App-Token": … }`. */
  get headers(): Record<"X-App-Id" | "X-App-Token", string> {
    return { "X-App-Id": this.appId, "X-App-Token": this.appToken };
  }
}
