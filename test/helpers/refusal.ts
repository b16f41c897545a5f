import { ApiError } from "../../src/domain/errors.js";

/** The service error `run` throws; fails the test if it accepts, and passes any other error on. */
export function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("accepted, but should have been refused");
}

/** The status and details of the service error `run` throws (see `refusal`). */
export function refusalOf(run: () => unknown): { status: number; details: unknown } {
  const { status, details } = refusal(run);
  return { status, details };
}
