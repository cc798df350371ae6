/**
 * What the crowd driver (open-loop engine, tests/bench/crowd/engine.ts) and
 * the user mix (tests/bench/crowd/mix.ts) share.
 */

/** The call types the bench reports on (issue 31 §2), with their share of arrivals. */
export type CallType =
  'signin' | 'refresh' | 'dashboard' | 'case-list' | 'case-detail' | 'write' | 'upload' | 'report';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query as the browser sends them (under /api/...). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Sends one request through the gateway the simulated user is on, with the
 * tenant's Host header; measured by the engine under `type` (every request of
 * an operation counts as a request of that type). Rejects only on a transport
 * failure (refused, reset, timeout); any HTTP status resolves.
 */
export type Send = (type: CallType, request: HttpRequest) => Promise<HttpAnswer>;

/** One simulated person: a demo (or bench) account of a tenant, signed in or not. */
export interface SimUser {
  tenant: string;
  username: string;
  password: string;
  /** Bearer token, once signed in. */
  token?: string;
  /** The refresh cookie as the server set it (name=value), once signed in. */
  refreshCookie?: string;
  /** Whatever the mix keeps between operations (case ids seen in lists, …). */
  memory: Record<string, unknown>;
}

/**
 * One operation of the mix: a user's action, one or more requests. Answers
 * an error text when the outcome is wrong (an unexpected status, a missing
 * field); the engine counts it as an error of `type`.
 */
export interface Operation {
  type: CallType;
  /** Relative weight among operations (the percentages). */
  weight: number;
  run(user: SimUser, send: Send, acknowledged: (write: AcknowledgedWrite) => void): Promise<string | null>;
}

/**
 * A write that answered 2xx, for the durability audit after a fault: what
 * identifies its effect in the database (a comment's id or text, the case and
 * the value set, a bulk job's id) and the request id its audit entry carries
 * (the answer's x-request-id). mix.ts's verifyAcknowledged checks them.
 */
export interface AcknowledgedWrite {
  tenant: string;
  kind: 'comment' | 'flag' | 'assign' | 'verdict' | 'bulk-verdict' | 'upload-submit' | string;
  requestId: string;
  key: Record<string, string | number | boolean | null>;
}
