import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REPORT_CHARTS } from '@portal/contracts';
import { dataScopeKey } from '@portal/core';
import type { GatewayCore } from '../core';
import { contextFor } from '../proxy/headers';
import { canonicalQuery } from './canonical-query';
import { loadFromCase, sendAnswer } from './case-answer';
import { reportPrefix } from './report-answers';

/**
 * The dashboard's and the report screens' JSON answers (spec 1 dashboard, spec 3 §7): each depends on
 * the caller's data scope and its query alone (the case service reads them through resolveScope). Not
 * here: the CSV downloads and the reconciliation report, whose flags people write and read back.
 */
export const SHARED_REPORT_PATHS: readonly string[] = [
  ...Object.keys(REPORT_CHARTS).map((chart) => `/cm/cases/reports/${chart}`),
  '/cm/cases/reports/res-kpi/chargebacks',
  '/cm/cases/reports/res-kpi/alerts',
  '/cm/cases/reports/mid-health',
  '/cm/cases/reports/mtd',
  '/cm/cases/reports/alerts',
  '/cm/cases/reports/monitoring',
  '/cm/cases/reports/win-rate',
  '/cm/cases/dashboard/chargebacks-mtd',
  '/cm/cases/dashboard/chargebacks-by-date-range',
  '/cm/cases/reports/cases-fraud-pct',
  '/cm/cases/reports/mids-count',
  '/cm/cases/reports/mids-top5',
  '/cm/cases/reports/chargebacks-by-status',
  '/cm/cases/reports/chargebacks-by-card-type',
];

/** Only the writes to the services that hold cases change what reports count. */
const CASE_DATA_WRITES = ['/api/cm/', '/api/ert/', '/api/docs/', '/api/builder/'];

/** Whether an answered call is a write that may change a report of its user (then noteWrite). */
export function changesReports(method: string, url: string, status: number): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || status >= 400) return false;
  return CASE_DATA_WRITES.some((prefix) => url.startsWith(prefix));
}

/**
 * GET of each shared report path (static routes, so they take precedence over the case proxy's
 * wildcard): the answer shared by the caller's data scope for a few seconds (report-answers.ts),
 * keyed by tenant, scope and the canonical query, which is also what the case service is sent.
 */
export async function reportRoutes(app: FastifyInstance, gw: GatewayCore) {
  for (const path of SHARED_REPORT_PATHS)
    app.get(`/api${path}`, (request, reply) => load(request, reply, path));

  async function load(request: FastifyRequest, reply: FastifyReply, path: string) {
    const tenant = request.tenant!;
    const context = contextFor(request);
    const query = canonicalQuery(request.url);
    const upstreamPath = query ? `${path}?${query}` : path;
    const key = `${reportPrefix(tenant.config.id)}${dataScopeKey(context)}:${upstreamPath}`;
    const timeoutMs = tenant.config.upstream_timeout_ms ?? gw.deps.env.UPSTREAM_TIMEOUT_MS;
    const { value, result } = await gw.reports.get(tenant.config.id, context.user_id ?? 0, key, () =>
      loadFromCase(gw, context, upstreamPath, timeoutMs),
    );
    return sendAnswer(reply, value, result);
  }
}
