import type { CaseDetail, InternalContext } from '@portal/contracts';
import { CallInTransactionError, HttpError, notFound, type ServiceClient } from '@portal/core';

/**
 * Whether a case is in the caller's scope (tenant, merchant subtree, MID
 * lists), answered by the case service that owns those rules: the call goes
 * out with the caller's own context, re-signed, so the docs service never
 * repeats the scope rules. Out of scope and unknown are the same 404.
 */
export class CaseScope {
  constructor(private readonly client: ServiceClient) {}

  async caseInScope(ctx: InternalContext, caseId: number): Promise<Pick<CaseDetail, 'id' | 'merchant_id'>> {
    const c = await this.caseDetail(ctx, caseId);
    return { id: c.id, merchant_id: c.merchant_id };
  }

  /** The case as the caller may see it (status, cycle, merchant): uploads check its status. */
  async caseDetail(ctx: InternalContext, caseId: number): Promise<CaseDetail> {
    const { exp: _exp, ...context } = ctx;
    try {
      return await this.client.get<CaseDetail>(`/cm/cases/${caseId}`, context);
    } catch (error) {
      if (error instanceof CallInTransactionError) throw error; // a bug to fix, not an outage
      if (error instanceof HttpError && error.statusCode === 404) throw notFound('Case not found.');
      if (error instanceof HttpError) throw error;
      // Refused connection or timeout: a bounded, generic answer rather than the raw error.
      throw new HttpError(503, 'The case service is unavailable. Please try again later.');
    }
  }
}
