import {
  BUILDABLE_STATUSES,
  type CaseDetail,
  type CaseList,
  type InternalContext,
  LOOKUP_PATHS,
  type Mid,
} from '@portal/contracts';
import type { Queryable } from './db';
import { HttpError, notFound } from './errors';
import type { ServiceClient } from './service-client';
import { CallInTransactionError } from './tx-guard';

/**
 * The case service as the other services ask it (design §4): each call goes
 * out with the caller's own context, re-signed by the ServiceClient (built on
 * CASE_SERVICE_URL and the context secret), so the case service applies its
 * scope rules (tenant, merchant subtree, MID lists) and no other service
 * repeats them. Out of scope and unknown are the same 404.
 */
export class CaseClient {
  constructor(
    private readonly client: ServiceClient,
    private readonly db: Queryable,
  ) {}

  private get<T>(ctx: InternalContext, path: string): Promise<T> {
    const { exp: _exp, ...context } = ctx;
    return this.client.get<T>(path, context).catch((error: unknown) => {
      throw caseServiceError(error);
    });
  }

  /** The case as the caller may see it (status, merchant, card, facts): one call answers scope and facts. */
  caseDetail(ctx: InternalContext, caseId: number): Promise<CaseDetail> {
    return this.get<CaseDetail>(ctx, `/cm/cases/${caseId}`);
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
    const list = await this.get<CaseList>(ctx, `/cm/cases?${q}`);
    return list.data.filter(
      (r) => r.id !== c.id && r.cc_bin === c.cc_bin && r.cc_last_four === c.cc_last_four,
    );
  }

  /**
   * One of the case service's lookup lists (`/cm/gen/*`, design §13: the case service owns them, the
   * others read what an id names from here, never from its tables), as the portal's selects ask it:
   * one page of 999 (spec 2 §7 'Lookups'). `T` is the path's item (contracts/lookups.ts).
   */
  async lookup<T extends { id: number }>(ctx: InternalContext, path: LookupPath): Promise<T[]> {
    return (await this.get<{ data: T[] }>(ctx, `${path}?limit=999`)).data;
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
    const list = await this.get<{ data: Mid[] }>(ctx, `/cm/mids?${q}`);
    const mid = list.data.find((m) => m.id === midId);
    if (!mid) throw notFound('MID not found.');
    return mid.merchant_id;
  }
}

/** A lookup list's path, without /api (contracts LOOKUP_PATHS). */
export type LookupPath = (typeof LOOKUP_PATHS)[number];

/** Whether a select's endpoint (contracts CatalogueField.endpoint) is one of the lookup lists. */
export const isLookupPath = (endpoint: string | null | undefined): endpoint is LookupPath =>
  (LOOKUP_PATHS as readonly string[]).includes(endpoint ?? '');

/** What the caller answers when a call to the case service fails. */
function caseServiceError(error: unknown): Error {
  if (error instanceof CallInTransactionError) return error; // a bug to fix, not an outage
  if (error instanceof HttpError && error.statusCode === 404) return notFound('Case not found.');
  // The case service's own answer (a 5xx of it comes as the ServiceClient's bounded 502).
  if (error instanceof HttpError) return error;
  // Refused connection or timeout: a bounded, generic answer rather than the raw error.
  return new HttpError(503, 'The case service is unavailable. Please try again later.');
}
