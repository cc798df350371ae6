import { HttpError } from '@portal/core';

/**
 * Every error the gateway itself answers, in one place. 401 (who are you?)
 * and 403 (you may not) stay distinct; 5xx never carry internals.
 */
export class GatewayError extends HttpError {
  constructor(
    readonly gwCode: string,
    statusCode: number,
    message: string,
    data?: unknown,
    code?: string | number,
  ) {
    super(statusCode, message, data, code);
    this.name = 'GatewayError';
  }
}

const make =
  (gwCode: string, status: number, message: string) =>
  (overrideMessage?: string, data?: unknown): GatewayError =>
    new GatewayError(gwCode, status, overrideMessage ?? message, data);

export const errors = {
  badPath: make('GW_BAD_PATH', 400, 'Invalid request path.'),
  badRequest: make('GW_BAD_REQUEST', 400, 'Bad request.'),
  duplicateHost: make('GW_DUPLICATE_HOST', 400, 'A request must carry exactly one Host header.'),
  unauthenticated: make('GW_UNAUTHENTICATED', 401, 'Authentication required.'),
  invalidToken: make('GW_INVALID_TOKEN', 401, 'Your session is not valid. Please sign in again.'),
  forbidden: make('GW_FORBIDDEN', 403, 'You do not have permission to do that.'),
  readOnly: make('GW_READ_ONLY', 403, 'Your account is read-only.'),
  impersonationRefused: make('GW_IMPERSONATION_REFUSED', 403, 'You may not act as this user.'),
  // Merchant API keys (issue 35.1): texts of API_KEY_MESSAGES (@portal/contracts).
  invalidApiKey: make('GW_INVALID_API_KEY', 401, 'The API key is not valid.'),
  apiKeyForbidden: make('GW_API_KEY_FORBIDDEN', 403, 'This API key may not call this route.'),
  apiKeyNoImpersonation: make('GW_API_KEY_NO_IMPERSONATION', 403, 'API keys cannot act as another user.'),
  apiKeyCreatorPassword: make(
    'GW_API_KEY_CREATOR_PASSWORD',
    403,
    "The API key's creator must update their password first.",
  ),
  notFound: make('GW_NOT_FOUND', 404, 'Not found.'),
  unknownTenant: make('GW_UNKNOWN_TENANT', 404, 'Unknown portal address.'),
  lengthRequired: make('GW_LENGTH_REQUIRED', 411, 'A request body needs a Content-Length.'),
  payloadTooLarge: make('GW_PAYLOAD_TOO_LARGE', 413, 'The request body is too large.'),
  rateLimited: make('GW_RATE_LIMITED', 429, 'Too many requests. Please wait a moment and try again.'),
  upstreamBad: make('GW_UPSTREAM_BAD', 502, 'The service answered badly. Please try again later.'),
  upstreamDown: make(
    'GW_UPSTREAM_DOWN',
    503,
    'The service is temporarily unavailable. Please try again later.',
  ),
  upstreamTimeout: make(
    'GW_UPSTREAM_TIMEOUT',
    504,
    'The service took too long to answer. Please try again later.',
  ),
};

/**
 * Forced password update (design §4 step 3): the web app shows the forced
 * form on any response whose data code is 401, so the code is given both at
 * top level and in `data`.
 */
export function passwordUpdateRequired(): GatewayError {
  return new GatewayError(
    'GW_PASSWORD_UPDATE_REQUIRED',
    403,
    'Password update required.',
    { code: 401 },
    401,
  );
}
