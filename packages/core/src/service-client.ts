import { INTERNAL_CONTEXT_HEADER, REQUEST_ID_HEADER, type InternalContext } from '@portal/contracts';
import { HttpError } from './errors';
import { signContext } from './internal-context';
import { assertNotInTransaction } from './tx-guard';

/**
 * Calls another service directly (not through the gateway) with a signed
 * context, e.g. the user service asking the case service for a merchant.
 * Never inside a database transaction: outside production a call made there
 * throws (tx-guard.ts); read first, or enqueue a job in the transaction.
 */
export class ServiceClient {
  constructor(
    private readonly baseUrl: string,
    private readonly secret: string,
    private readonly timeoutMs = 5000,
  ) {}

  async request<T>(
    method: string,
    path: string,
    context: Omit<InternalContext, 'exp'>,
    body?: unknown,
  ): Promise<T> {
    const url = new URL(path, this.baseUrl);
    assertNotInTransaction(`${method} ${url.origin}${url.pathname}`);
    const response = await fetch(url, {
      method,
      headers: {
        [INTERNAL_CONTEXT_HEADER]: signContext(context, this.secret),
        [REQUEST_ID_HEADER]: context.request_id,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (!response.ok) {
      const message =
        (parsed as { message?: string } | undefined)?.message ?? `Upstream answered ${response.status}`;
      throw new HttpError(response.status >= 500 ? 502 : response.status, message);
    }
    return parsed as T;
  }

  get<T>(path: string, context: Omit<InternalContext, 'exp'>) {
    return this.request<T>('GET', path, context);
  }
}
