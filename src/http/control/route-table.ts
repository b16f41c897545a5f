import type { Request, Response } from "express";
import type { z } from "zod";
import type { Project } from "../../domain/projects/project.js";
import type { HttpMethod } from "../route.js";
import type { ControlDeps } from "./deps.js";

/**
 * What a handler gets: the parsed query and body when its row declares them, else the raw ones, and the project
 * its path names.
 */
export interface ControlCall<Query = unknown, Body = unknown, Of = Project | undefined> {
  deps: ControlDeps;
  params: Record<string, string>;
  query: Query;
  body: Body;
  /**
   * The project of a path under `/projects/{projectId}`, looked up once by the mount after the input is parsed
   * (404 not_found when there is none); undefined on any other path.
   */
  project: Of;
  req: Request;
  res: Response;
}

/** The project a row's handler is given: one on a path under `/projects/{projectId}`, none elsewhere. */
type ProjectOf<P extends string> = string extends P
  ? Project | undefined
  : P extends `${typeof PROJECT_PATH}${string}`
    ? Project
    : undefined;

/** The paths whose rows are given their project (mount.ts): `/projects/{projectId}` and everything under it. */
const PROJECT_PATH = "/projects/{projectId}";

/** Whether a row's path names a project, whose rows get it looked up (ProjectOf says the same of the types). */
export function namesProject(path: string): boolean {
  return path === PROJECT_PATH || path.startsWith(`${PROJECT_PATH}/`);
}

/** The errors a route may answer besides success, by status: the keys it uses for each. */
type ControlErrors = Partial<Record<400 | 404 | 409, readonly string[]>>;

/**
 * One control route: how it is called, what it answers, how it is documented and what it does. The routes are
 * mounted from these rows (mount.ts) and /__mock/openapi.json is generated from them (openapi.ts), so the two
 * cannot drift. Every row is behind the admin token when the server has one: it is checked before the route.
 */
export interface ControlRoute<Query = unknown, Body = unknown> {
  method: HttpMethod;
  /** Under /__mock, as OpenAPI writes it: `{name}` for a path parameter (always a string). */
  path: string;
  /** The OpenAPI tag: the group the route belongs to. */
  tag: string;
  summary: string;
  description?: string;
  /** The query parameters, parsed at the edge (400 invalid_payload naming the parameter). */
  query?: z.ZodObject;
  /** Each query parameter's description, for the document. */
  queryHelp?: Readonly<Record<string, string>>;
  /**
   * The request body: read as JSON (or streamed, for state documents), documented with `body`, and parsed with it
   * at the edge, unless `parse` does that instead.
   */
  body?: z.ZodType;
  bodyReader?: "json" | "stream";
  /**
   * Parses the body at the edge in place of `body`, where the schema alone cannot: a body told apart by looking
   * at it (a template request or a project document), or a document whose problems are named as the fixture
   * loader names them (`$.vouchers[2].code`). Runs before the project is looked up, as the schema would; a
   * promise for a document validated a slice at a time.
   */
  parse?: (body: unknown, deps: ControlDeps) => Body | Promise<Body>;
  /** The success status; 204 answers no body. */
  status?: 200 | 201 | 202 | 204;
  /** The success answer's schema (a string for a stream of events). */
  output?: z.ZodType;
  /** What the document says of a success, when more than "Success". */
  outputDescription?: string;
  /** The handler writes the answer itself, in this media type: a streamed export, server-sent events. */
  stream?: "application/json" | "text/event-stream";
  /** Errors beyond those every route can give (401; 404 with a path parameter; 400, 413, 415 with a body). */
  errors?: ControlErrors;
  /**
   * Takes the parsed input, calls the domain, returns the answer (ignored for streams and 204), or a promise of it
   * (a project built a slice at a time).
   */
  handle(call: ControlCall<Query, Body>): unknown;
}

/**
 * A row typed on its own, so that its handler, its schemas and its path agree (a handler under
 * `/projects/{projectId}` is given a Project); the table holds them erased.
 */
export function row<
  const P extends string,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  Parsed = B extends z.ZodType ? z.output<B> : unknown,
>(
  definition: Omit<ControlRoute, "path" | "query" | "body" | "parse" | "handle"> & {
    path: P;
    query?: Q;
    body?: B;
    parse?: (body: unknown, deps: ControlDeps) => Parsed | Promise<Parsed>;
    handle(call: ControlCall<Q extends z.ZodType ? z.output<Q> : unknown, Parsed, ProjectOf<P>>): unknown;
  },
): ControlRoute {
  return definition as unknown as ControlRoute;
}

/** The path parameters of a path template, in order. */
export function paramsOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? "");
}
