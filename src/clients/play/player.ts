import type { PlayOutcome, PlayRun } from "../../http/control/demo/plays.js";
import { type OperationName, operation } from "../../http/operations/table.js";
import { filledPath } from "../../http/route.js";
import { stopReasonOf } from "../bounded-request.js";
import { DEFAULT_MAX_ANSWER_BYTES } from "../read-answer.js";
import { type Call, CallFailed, type CallTarget, callJson, type JsonAnswer, said, textOf } from "./calls.js";
import { incentiveGone, type Look, runOf, sourceIdOfRun, tierThere } from "./replay.js";
import { advanceSeconds, type Scenario, type Step } from "./scenario.js";
import { Standing } from "./standing.js";

/**
 * Plays a scenario against a running server, step by step, through the public operations as an application
 * calls them, each call as its row of the operation table declares it: the project's key pair on every call
 * (`X-App-Id`, `X-App-Token`) and, for the v2 operations, an OAuth token it got from the token operation (again
 * after the clock moved, as a token lives 900 s on the project's clock). The journal shows these calls as any client's. A clock step is the control API's
 * (`POST /__mock/projects/{id}/clock`): the one thing an application cannot do.
 */
/** A play: the server, the project and its key, the pace (http/control/demo/plays.ts), and its answers' limits. */
export interface PlayOptions extends PlayRun {
  /** The most bytes one answer may be, as sent and decoded (DEFAULT_MAX_ANSWER_BYTES unless given). */
  maxAnswerBytes?: number;
  /** How long one call may take, to its answer's last byte (clients/bounded-request.ts's default unless given). */
  timeoutMs?: number;
}

/** Plays every step in order; stops at the first that fails, or when the signal says so, naming the step. */
export async function playScenario(scenario: Scenario, options: PlayOptions): Promise<PlayOutcome> {
  const player = new Player(options);
  const total = scenario.steps.length;
  const { signal } = options;
  await player.prepare(scenario);
  for (const [index, step] of scenario.steps.entries()) {
    const number = index + 1;
    const prefix = `${String(number).padStart(String(total).length)}/${total} ${step.type.padEnd(16)}`;
    let done: string | undefined;
    let failure: string | undefined;
    try {
      if (!signal?.aborted) done = await player.play(step);
    } catch (error) {
      failure = (error as Error).message;
    }
    // A step the signal cut short is stopped, not failed: its call or pause ended because the play was stopped.
    const message = signal?.aborted
      ? `step ${number} (${describe(step)}) stopped: ${stopReasonOf(signal)}`
      : failure !== undefined
        ? `step ${number} (${describe(step)}) failed: ${failure}`
        : undefined;
    if (message !== undefined) {
      options.print(`${prefix} ${message}`, number);
      return { ok: false, step: number, message };
    }
    options.print(`${prefix} ${done}`, number);
  }
  return { ok: true, steps: total };
}

/** A step named as the failure line names it: `join zofia@example.com`, `tier Gold`. */
function describe(step: Step): string {
  switch (step.type) {
    case "join":
      return `join ${step.customer.source_id}`;
    case "event":
      return `event ${step.event} by ${step.customer}`;
    case "clock":
      return `clock +${step.advance}`;
    case "tier":
      return `tier ${step.name}`;
    case "delete_incentive":
      return `delete_incentive ${step.incentive}`;
    case "pause":
      return `pause ${step.seconds} s`;
  }
}

class Player {
  readonly #options: PlayOptions;
  readonly #target: CallTarget;
  readonly #standing = new Standing();
  #token: string | undefined;
  /** This play's run of its scenario on the project (replay.ts): which source ids its people have. */
  #run = 1;

  constructor(options: PlayOptions) {
    this.#options = options;
    this.#target = {
      url: options.url,
      maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    };
  }

  /** Plays again (replay.ts): which run this is, so that a scenario played before names its people afresh. */
  async prepare(scenario: Scenario): Promise<void> {
    this.#run = await runOf(scenario, this.#options.projectId, this.#look);
  }

  /** A control API read that may be refused: undefined then, and the play goes on as the scenario is written. */
  readonly #look: Look = (path) =>
    this.#call("GET", path, { control: true }).catch((error: unknown) => {
      if (error instanceof CallFailed) return undefined;
      throw error;
    });

  async play(step: Step): Promise<string> {
    const { projectId } = this.#options;
    switch (step.type) {
      case "join": {
        const sourceId = sourceIdOfRun(step.customer.source_id, this.#run);
        const email = step.customer.email === step.customer.source_id ? sourceId : step.customer.email;
        const customer = { ...step.customer, source_id: sourceId, ...(email !== undefined && { email }) };
        const card = await this.#operation("addMember", { campaignId: step.campaign }, { customer });
        const who = customer.name ? `${customer.name} (${customer.source_id})` : customer.source_id;
        const code = textOf(card, "code");
        const standing = await this.#standingOf(card.body.holder_id, code);
        return `${who} joined ${step.campaign}: card ${said(code)}${standing && `, ${standing}`}`;
      }
      case "event": {
        const { event, metadata } = step;
        const customer = sourceIdOfRun(step.customer, this.#run);
        const answer = await this.#operation(
          "trackEvent",
          {},
          { event, customer: { source_id: customer }, ...(metadata && { metadata }) },
        );
        const standing = await this.#standingOf((answer.body.customer as { id?: unknown } | null)?.id);
        return `${event} by ${customer}${standing && `: ${standing}`}`;
      }
      case "clock": {
        const clock = await this.#call(
          "POST",
          `/__mock/projects/${encodeURIComponent(this.#options.projectId)}/clock`,
          { json: { advance_seconds: advanceSeconds(step.advance) }, control: true },
        );
        // The token's 900 s are on the project's clock: a new one for the next v2 call.
        this.#token = undefined;
        return `+${step.advance}: the project's clock shows ${said(textOf(clock, "now"))}`;
      }
      case "tier": {
        if (await tierThere(step, projectId, this.#look))
          return `${step.name} (${step.min_points}-${step.max_points} points) is in ${step.structure} already`;
        const tier = await this.#operation(
          "createTier",
          { id: step.structure },
          {
            name: step.name,
            qualification_rules: { type: "POINTS", min_value: step.min_points, max_value: step.max_points },
          },
        );
        return `${step.name} (${step.min_points}-${step.max_points} points) created in ${step.structure}: ${said(textOf(tier, "id"))}`;
      }
      case "delete_incentive":
        if (await incentiveGone(step, projectId, this.#look)) return `${step.incentive} was deleted already`;
        await this.#operation("deleteIncentive", { id: step.incentive });
        return `${step.incentive} deleted`;
      case "pause": {
        const ms = (step.seconds * 1000) / this.#options.speed;
        await pause(ms, this.#options.signal);
        return this.#options.speed === 1
          ? `${step.seconds} s`
          : `${step.seconds} s (${Math.round(ms) / 1000} s at speed ${this.#options.speed})`;
      }
    }
  }

  /** The customer's cards' points and tier moves (standing.ts); "" when the control API does not tell them. */
  async #standingOf(customerId: unknown, code?: string): Promise<string> {
    if (typeof customerId !== "string") return "";
    const path = `/__mock/projects/${encodeURIComponent(this.#options.projectId)}/customers/${encodeURIComponent(customerId)}/story`;
    const story = await this.#call("GET", path, { control: true }).catch((error: unknown) => {
      if (error instanceof CallFailed) return undefined;
      throw error;
    });
    return this.#standing.describe(story, code);
  }

  async #tokenFor(): Promise<string> {
    if (this.#token !== undefined) return this.#token;
    const answer = await this.#operation(
      "generateToken",
      {},
      { grant_type: "client_credentials", scope: "api" },
    );
    this.#token = textOf(answer, "access_token");
    return this.#token;
  }

  /**
   * A call of an operation as its row declares it: its method, its path with the parameters filled in, its body as
   * the row reads one (a form or JSON), the key pair, and for a v2 row the bearer token with it.
   */
  #operation(name: OperationName, params: Record<string, string>, body?: unknown): Promise<JsonAnswer> {
    const row = operation(name);
    return this.#call(row.method, filledPath(row.path, params), {
      ...(body !== undefined && row.body === "form" && { form: body as Record<string, string> }),
      ...(body !== undefined && row.body === "json" && { json: body }),
      bearer: row.auth.v2,
    });
  }

  async #call(
    method: Call["method"],
    path: string,
    how: { json?: unknown; form?: Record<string, string>; bearer?: boolean; control?: boolean },
  ): Promise<JsonAnswer> {
    const { keys, adminToken } = this.#options;
    const headers: Record<string, string> = {};
    if (how.control) {
      if (adminToken !== undefined) headers["X-Mock-Admin-Token"] = adminToken;
    } else {
      headers["X-App-Id"] = keys.appId;
      headers["X-App-Token"] = keys.appToken;
    }
    if (how.bearer) headers.Authorization = `Bearer ${await this.#tokenFor()}`;
    let body: string | undefined;
    if (how.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(how.form).toString();
    } else if (how.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(how.json);
    }
    return callJson(this.#target, { method, path, headers, ...(body !== undefined && { body }) });
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
