/** The error catalogue of spec 1 §8, in one place. */
export const GENERIC_ERROR = 'An error occurred. Please try again later.';
export const UNKNOWN_ERROR = 'An unknown error occurred. Please try again later.';
export const PREAUTH_PREFIX = 'PreAuthentication failed with error ';
export const WHOAMI_HTML_ERROR = 'There was an issue logging in. Please try again.';
export const RESET_PASSWORD_ERROR = 'An error occurred resetting password.';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function record(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
}

/** Any response whose JSON carries code 401 (top level or in data.code) means: forced password update. */
export function hasDataCode401(body: unknown): boolean {
  const b = record(body);
  if (!b) return false;
  if (Number(b.code) === 401) return true;
  const data = record(b.data);
  return !!data && Number(data.code) === 401;
}

/** The server's readable message, else the generic text. */
export function serverMessage(body: unknown, fallback = GENERIC_ERROR): string {
  const b = record(body);
  const msg = b?.message;
  return typeof msg === 'string' && msg.trim() ? msg : fallback;
}

/** Sign-in failure: the provider's message without its PreAuthentication prefix, else the generic text. */
export function signInErrorMessage(error: unknown): string {
  const msg = error instanceof ApiError ? error.message : null;
  if (!msg || msg === UNKNOWN_ERROR) return GENERIC_ERROR;
  return msg.startsWith(PREAUTH_PREFIX) ? msg.slice(PREAUTH_PREFIX.length) || GENERIC_ERROR : msg;
}

/** Generic query failure: status plus 'unable to obtain data'. */
export function queryErrorMessage(error: unknown): string {
  const status = error instanceof ApiError && error.status ? `${error.status} ` : '';
  return `${status}unable to obtain data`;
}

export function detail(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
