import { IncomingMessage, type RequestListener, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** What Node needs to build each request and response as instances of other classes (createServer's options). */
export interface MessageClasses {
  IncomingMessage?: typeof IncomingMessage;
  ServerResponse?: typeof ServerResponse;
}

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
  function AppRequest(this: IncomingMessage, socket: Socket): void {
    IncomingMessage.call(this, socket);
  }
  AppRequest.prototype = request;
  function AppResponse(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>): void {
    ServerResponse.call(this, ...args);
  }
  AppResponse.prototype = response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}
