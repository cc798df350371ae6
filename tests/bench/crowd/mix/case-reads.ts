import type { CaseRow } from '@portal/contracts';
import { knownCases, loadCasesToWork, rememberRows } from './case-pool';
import { caseListRequest, pageParams } from './case-query';
import { expectStatus, listOf } from './http';
import { chance, pick, randomInt, weighted } from './random';
import { get, type OpContext } from './session';
import { countSkip } from './state';

/** The filter panel's rows (panel-filters.ts), whose counts show while the panel is open. */
const PANEL_ROWS = [
  { cycle: '9' },
  { cycle: '1' },
  { cycle: '2' },
  { cycle: '1', is_fraud: 1 },
  { cycle: '1', is_fraud: 0 },
  { filter_group: 'primary_case_expire', primary_case_due_days: 7 },
];

/**
 * Case lists (40%): a list with its search, sort and filters, at its first
 * page (or a later one from a copied link), sometimes the filter panel's
 * counts, then often another page: the next one, one deep in the list or the
 * last one (the tenant's lists run to 500,000 cases).
 */
export async function caseList(ctx: OpContext): Promise<void> {
  const request = caseListRequest(ctx.state, ctx.user.tenant);
  let page = chance(0.1) ? randomInt(1, 20) : 0;
  let answer = await get(ctx, '/api/cm/cases', pageParams(request, page));
  expectStatus(answer, 200);
  let list = listOf<CaseRow>(answer);
  if (!list.data.length && list.total > 0 && page > 0) {
    // A link past the end shows the last page (case-list.tsx onLoaded).
    page = Math.ceil(list.total / request.pageSize) - 1;
    answer = await get(ctx, '/api/cm/cases', pageParams(request, page));
    expectStatus(answer, 200);
    list = listOf<CaseRow>(answer);
  }
  rememberRows(ctx.state, answer);
  if (chance(0.1)) {
    const counts = await Promise.all(
      PANEL_ROWS.map((row) =>
        get(ctx, '/api/cm/cases', { ...request.filterBase, ...row, start: 0, limit: 0 }),
      ),
    );
    for (const c of counts) expectStatus(c, 200);
  }
  const pages = Math.ceil(list.total / request.pageSize);
  if (pages > 1 && chance(0.4)) {
    // Mostly the next page; else a page further on, one anywhere in the list, or the last one.
    const next = weighted<number>([
      [Math.min(page + 1, pages - 1), 5],
      [randomInt(0, Math.min(pages, 100) - 1), 2],
      [randomInt(0, pages - 1), 1.5],
      [pages - 1, 1.5],
    ]);
    const more = await get(ctx, '/api/cm/cases', pageParams(request, next));
    expectStatus(more, 200);
    rememberRows(ctx.state, more);
  }
}

/**
 * Case detail and history (15%) of a case from the user's lists: the expanded
 * row's latest comments, the Case History modal (and its next page or larger
 * page size), the case itself, and its document link when it has one.
 */
export async function caseDetail(ctx: OpContext): Promise<void> {
  let cases = knownCases(ctx.state, () => true);
  if (!cases.length) cases = await loadCasesToWork(ctx, null);
  if (!cases.length) return countSkip(ctx.state, 'case-detail: no case in scope');
  const c = pick(cases.slice(0, 100));
  const expand = chance(0.5);
  const history = !expand || chance(0.5);
  if (expand) await read(ctx, `/api/cm/cases/${c.id}/comments`, { start: 0, limit: 3 });
  if (history) {
    await read(ctx, `/api/cm/cases/${c.id}/history`, { start: 0, limit: 5 });
    if (chance(0.3)) {
      const params = chance(0.5) ? { start: 5, limit: 5 } : { start: 0, limit: 10 };
      await read(ctx, `/api/cm/cases/${c.id}/history`, params);
    }
  }
  if (chance(0.3)) await read(ctx, `/api/cm/cases/${c.id}`);
  if (c.hasDocument && chance(0.2)) {
    // The Document column's link: 410 once the file is archived past retention.
    const doc = await get(ctx, `/api/docs/representment/${c.id}`);
    expectStatus(doc, 200, 410);
  }
}

/** A read of a case of the user's own lists: in scope, so anything but 200 is an error. */
async function read(ctx: OpContext, path: string, params?: Record<string, number>): Promise<void> {
  const answer = await get(ctx, path, params);
  expectStatus(answer, 200);
}
