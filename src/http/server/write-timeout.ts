import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "pino";

/** libuv's count of the bytes a socket has handed it and the kernel has not taken yet; it falls as the peer reads. */
type Handle = { writeQueueSize?: number };

interface Watch {
  socket: Socket;
  /** What was still unsent at the last look: Node's buffer, and libuv's queue under it. */
  buffered: number;
  queued: number;
  /** When the unsent bytes last went down (or first appeared). */
  since: number;
}

function queuedOf(socket: Socket): number {
  return (socket as Socket & { _handle?: Handle | null })._handle?.writeQueueSize ?? 0;
}

/**
 * Cuts a connection whose answer has made no progress for `timeoutMs`: a client that stops reading would otherwise
 * pin its answer (and every pipelined answer behind it) in memory for as long as it keeps the connection open, and
 * forty such clients on a large state export held gigabytes. Progress is any fall in the unsent bytes, in Node's
 * buffer or in libuv's queue, so a slow reader of a large answer keeps its connection while it reads; a connection
 * with nothing to send is never judged, so an answer held back on purpose (a fault's latency) is not cut either.
 * One sweep per server, a quarter of the timeout apart (at most a second): the cut comes at most that late.
 */
export function cutStalledWriters(server: Server, timeoutMs: number, logger: Logger): void {
  const watches = new Map<Socket, Watch>();
  server.on("connection", (socket: Socket) => {
    watches.set(socket, { socket, buffered: 0, queued: 0, since: 0 });
    socket.once("close", () => watches.delete(socket));
  });
  const period = Math.max(25, Math.min(1000, Math.floor(timeoutMs / 4)));
  let lastSweep = Date.now();
  const sweep = setInterval(() => {
    const now = Date.now();
    // While the event loop was held up (a long request, a GC), nothing was written: that is not the client's
    // doing, so a late sweep gives every connection a fresh start instead of counting the wait against it.
    const late = now - lastSweep > 2 * period;
    lastSweep = now;
    for (const watch of watches.values()) {
      const buffered = watch.socket.writableLength;
      const queued = queuedOf(watch.socket);
      if (buffered === 0 && queued === 0) watch.since = 0;
      else if (late || watch.since === 0 || buffered < watch.buffered || queued < watch.queued)
        watch.since = now;
      else if (now - watch.since >= timeoutMs) {
        logger.warn(
          { unsentBytes: buffered + queued, writeTimeoutMs: timeoutMs },
          "connection cut: its client read nothing of the answer for the write timeout",
        );
        watches.delete(watch.socket);
        watch.socket.destroy();
        continue;
      }
      watch.buffered = buffered;
      watch.queued = queued;
    }
  }, period);
  // The sweep must not keep a process alive on its own, and ends with the server.
  sweep.unref();
  server.once("close", () => clearInterval(sweep));
}
