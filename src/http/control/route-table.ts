import type { Request, Response } from "express";
import type { z } from "zod";
import type { ControlDeps } from "./deps.js";

type ControlMethod = "get" | "post" | "put" | "patch" | "delete";

/** What a handler gets: the parsed query and body when its row declares them, else the raw ones. */
export interface ControlCall<Query = unknown, Body = unknown> {
  deps: ControlDeps;
  params: Record<string, string>;
  query: Query;
  body: Body;
  req: Request;
  res: Response;
}

/** The errors a route may answer besides success, by status: the keys it uses for each. */
type ControlErrors = Partial<Record<400 | 404 | 409, readonly string[]>>;

/**
 * One control route: how it is called, what it answers, how it is documented and what it does. The routes are
 * mounted from these rows (mount.ts) and /__mock/openapi.json is generated from them (openapi.ts), so the two
 * cannot drift. Every row is behind the admin token when the server has one: it is checked before the route.
 */
export interface ControlRoute<Query = unknown, Body = unknown> {
  method: ControlMethod;
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
   * at the edge unless `parsedBy` says the handler does (it must look at the body to choose a schema).
   */
  body?: z.ZodType;
  bodyReader?: "json" | "stream";
  parsedBy?: "handler";
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
  /** Takes the parsed input, calls the domain, returns the answer (ignored for streams and 204). */
  handle(call: ControlCall<Query, Body>): unknown;
}

/** A row typed on its own, so that its handler and its schemas agree; the table holds them erased. */
export function row<
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  definition: Omit<ControlRoute, "query" | "body" | "handle"> & {
    query?: Q;
    body?: B;
    handle(
      call: ControlCall<
        Q extends z.ZodType ? z.output<Q> : unknown,
        B extends z.ZodType ? z.output<B> : unknown
      >,
    ): unknown;
  },
): ControlRoute {
  return definition as unknown as ControlRoute;
}

/** The path parameters of a path template, in order. */
export function paramsOf(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? "");
}
