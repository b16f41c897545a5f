import { IncomingMessage, type RequestListener, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** What Node needs to build each request and response as instances of other classes (createServer's options). */
export interface MessageClasses {
  IncomingMessage?: typeof IncomingMessage;
  ServerResponse?: typeof ServerResponse;
}

/** What AppRequest and AppResponse below see `this` as, to write the assignments that never run. */
type Room = Record<string, undefined>;

/**
 * False, always: the condition of the assignments in AppRequest and AppResponse below, which never run but are
 * counted. V8 gives the objects a constructor makes as many fields inside the object as it counts `this.x = ...`
 * in the constructor's own text (plus a few); further fields go to an array beside it, and once that array holds
 * more than a dozen, adding a symbol-keyed field turns the object's properties into a hash table. The wrappers
 * counted none, so the response (over 40 fields from Node's constructors) was a hash table before it reached the
 * app, and the request became one when Express and the traffic steps added theirs: every field read was a lookup
 * and every field added a bigger table to allocate. Node's own classes, which count their fields, never were.
 * With 48 and 64 counted (a request ends with under 40 fields, a response under 50) both keep fixed shapes; V8
 * trims the room that goes unused once it has seen a few objects made (issue 36).
 */
const NEVER = false;

/**
 * An Express app gives every request and response its own prototypes (`app.request`, `app.response`) with
 * `Object.setPrototypeOf`, first thing on each request. V8 handles that change of prototype slowly, and it keeps
 * much of each request alive past the next young-generation collection. So for such an app Node builds them with
 * those prototypes in the first place, and Express's own call finds the prototype already in place, which V8
 * returns from at once. The objects are the same either way: Node's constructors run on them, and their prototype
 * is the app's. Any other listener gets Node's own classes.
 */
export function appMessageClasses(app: RequestListener): MessageClasses {
  const { request, response } = app as RequestListener & { request?: unknown; response?: unknown };
  if (!(request instanceof IncomingMessage) || !(response instanceof ServerResponse)) return {};
  // Functions rather than classes: a class's `prototype` cannot be replaced, and it must be the app's object.
  function AppRequest(this: Room, socket: Socket): void {
    IncomingMessage.call(this as unknown as IncomingMessage, socket);
    // Never runs: sizes the request (see NEVER).
    // biome-ignore format: one line per field would be 48 lines
    if (NEVER)
      this.f0 = this.f1 = this.f2 = this.f3 = this.f4 = this.f5 = this.f6 = this.f7 = this.f8 = this.f9 = this.f10 = this.f11 =
      this.f12 = this.f13 = this.f14 = this.f15 = this.f16 = this.f17 = this.f18 = this.f19 = this.f20 = this.f21 = this.f22 = this.f23 =
      this.f24 = this.f25 = this.f26 = this.f27 = this.f28 = this.f29 = this.f30 = this.f31 = this.f32 = this.f33 = this.f34 = this.f35 =
      this.f36 = this.f37 = this.f38 = this.f39 = this.f40 = this.f41 = this.f42 = this.f43 = this.f44 = this.f45 = this.f46 = this.f47 =
        undefined;
  }
  AppRequest.prototype = request;
  function AppResponse(this: Room, ...args: ConstructorParameters<typeof ServerResponse>): void {
    ServerResponse.call(this as unknown as ServerResponse, ...args);
    // Never runs: sizes the response (see NEVER).
    // biome-ignore format: one line per field would be 64 lines
    if (NEVER)
      this.f0 = this.f1 = this.f2 = this.f3 = this.f4 = this.f5 = this.f6 = this.f7 = this.f8 = this.f9 = this.f10 = this.f11 =
      this.f12 = this.f13 = this.f14 = this.f15 = this.f16 = this.f17 = this.f18 = this.f19 = this.f20 = this.f21 = this.f22 = this.f23 =
      this.f24 = this.f25 = this.f26 = this.f27 = this.f28 = this.f29 = this.f30 = this.f31 = this.f32 = this.f33 = this.f34 = this.f35 =
      this.f36 = this.f37 = this.f38 = this.f39 = this.f40 = this.f41 = this.f42 = this.f43 = this.f44 = this.f45 = this.f46 = this.f47 =
      this.f48 = this.f49 = this.f50 = this.f51 = this.f52 = this.f53 = this.f54 = this.f55 = this.f56 = this.f57 = this.f58 = this.f59 =
      this.f60 = this.f61 = this.f62 = this.f63 =
        undefined;
  }
  AppResponse.prototype = response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}
