import {
  BUILDABLE_STATUSES,
  type CaseDetail,
  type CaseList,
  type InternalContext,
  type Mid,
} from '@portal/contracts';
import {
  CallInTransactionError,
  HttpError,
  notFound,
  type Queryable,
  type ServiceClient,
} from '@portal/core';

type Context = Omit<InternalContext, 'exp'>;
const strip = ({ exp: _exp, ...context }: InternalContext): Context => context;

/**
 * The case facts the builder needs, asked of the case service with the
 * caller's own context (design §4: services refuse what is out of scope), so
 * the builder never repeats the scope rules. Out of scope and unknown are the
 * same 404.
 */
export class CaseClient {
  constructor(
    private readonly client: ServiceClient,
    private readonly db: Queryable,
  ) {}

  private async call<T>(ctx: InternalContext, path: string): Promise<T> {
    try {
      return await this.client.get<T>(path, strip(ctx));
    } catch (error) {
      if (error instanceof CallInTransactionError) throw error; // a bug to fix, not an outage
      if (error instanceof HttpError && error.statusCode === 404) throw notFound('Case not found.');
      if (error instanceof HttpError && error.statusCode < 500) throw error;
      // Refused connection or timeout: a bounded, generic answer rather than the raw error.
      throw new HttpError(503, 'The case service is unavailable. Please try again later.');
    }
  }

  caseDetail(ctx: InternalContext, caseId: number): Promise<CaseDetail> {
    return this.call<CaseDetail>(ctx, `/cm/cases/${caseId}`);
  }

  /** Other open cases (New or Working) with the same card (bin and last four) the caller may see. */
  async relatedCases(ctx: InternalContext, c: CaseDetail): Promise<CaseList['data']> {
    if (!c.cc_last_four) return [];
    const q = new URLSearchParams({
      cc_last_four: c.cc_last_four,
      status_id: BUILDABLE_STATUSES.join(','),
      limit: '100',
      sort_by: 'id',
      sort_order: 'asc',
    });
    if (c.cc_bin) q.set('cc_bin', c.cc_bin);
    const list = await this.call<CaseList>(ctx, `/cm/cases?${q}`);
    return list.data.filter(
      (r) => r.id !== c.id && r.cc_bin === c.cc_bin && r.cc_last_four === c.cc_last_four,
    );
  }

  /**
   * The merchant of a MID the caller may see, or 404. The MID's number is read
   * from what the case service declares of its MIDs (the cases_api.mids view),
   * then the case service answers whether the caller's scope holds it.
   */
  async midMerchant(ctx: InternalContext, midId: number): Promise<number> {
    const { rows } = await this.db.query<{ mid: string }>(
      `select mid from cases_api.mids where tenant_id = $1 and id = $2`,
      [ctx.tenant, midId],
    );
    if (!rows[0]) throw notFound('MID not found.');
    const q = new URLSearchParams({ search: rows[0].mid, limit: '50' });
    const list = await this.call<{ data: Mid[] }>(ctx, `/cm/mids?${q}`);
    const mid = list.data.find((m) => m.id === midId);
    if (!mid) throw notFound('MID not found.');
    return mid.merchant_id;
  }
}
