import autocannon, { type Request } from "autocannon";

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  /** Connection errors, timeouts and non-2xx answers: a benchmark of failures measures nothing. */
  errors: number;
  requests: number;
  /** Server CPU time per request, in microseconds, when the server's process could be watched. */
  cpuUs?: number | undefined;
}

/** One autocannon run against `url`, either for `duration` seconds or for `amount` requests. */
export async function measure(
  url: string,
  requests: Request[],
  options: { connections: number; duration?: number; amount?: number },
): Promise<Measurement> {
  const result = await autocannon({
    url,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 3 }),
    requests,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
