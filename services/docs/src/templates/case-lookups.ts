import type { CaseDetail, InternalContext, Mid } from '@portal/contracts';
import { CallInTransactionError, HttpError, notFound, type ServiceClient } from '@portal/core';

/**
 * What the case service says about the caller's scope, asked with the
 * caller's own context (re-signed), as case-scope.ts does for a case: the
 * docs service never repeats the merchant subtree or MID rules.
 */
export class CaseLookups {
  constructor(private readonly client: ServiceClient) {}

  private async get<T>(ctx: InternalContext, path: string, notFoundStatuses: number[], message: string) {
    const { exp: _exp, ...context } = ctx;
    try {
      return await this.client.get<T>(path, context);
    } catch (error) {
      if (error instanceof CallInTransactionError) throw error; // a bug to fix, not an outage
      if (error instanceof HttpError && notFoundStatuses.includes(error.statusCode)) throw notFound(message);
      if (error instanceof HttpError) throw error;
      throw new HttpError(503, 'The case service is unavailable. Please try again later.');
    }
  }

  /**
   * The MID ids of a merchant (its subtree, within the caller's MID lists) when
   * the merchant is in the caller's scope; 404 otherwise (unknown and out of
   * scope alike: the case service answers 400 for both).
   */
  async merchantMids(ctx: InternalContext, merchantId: number, message: string): Promise<Set<number>> {
    const list = await this.get<{ data: Mid[] }>(
      ctx,
      `/cm/mids?merchant_id=${merchantId}&limit=1000`,
      [400, 404],
      message,
    );
    return new Set(list.data.map((m) => m.id));
  }

  /** The case's issuer documents, when the case is in scope (404 otherwise). */
  async caseIssuerDocs(ctx: InternalContext, caseId: number): Promise<CaseDetail['issuer_docs']> {
    const c = await this.get<CaseDetail>(ctx, `/cm/cases/${caseId}`, [404], 'Case not found.');
    return c.issuer_docs ?? [];
  }
}
