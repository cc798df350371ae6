import { demoMerchantId } from '@portal/contracts';
import { ACME, type CaseApp } from './case-app';

/** Sample-case helpers of the review tests: distinct cases per test, never the same twice. */
export function reviewSupport(app: () => CaseApp) {
  const used = new Set<number>();
  const db = () => app().t.db;
  return {
    /** Cases of acme (merchant A1's when asked) matching `where`, optionally moved to a status first. */
    async cases(n: number, opts: { where?: string; merchantA1?: boolean; status?: number } = {}) {
      const { rows } = await db().query<{ id: number }>(
        `select id from cases.cases where tenant_id = 'acme' and (merchant_id = $1 or not $4)
           and ${opts.where ?? 'status_id = 1 and assigned_user_id is null'} and not (id = any($2::bigint[]))
         order by id limit $3`,
        [demoMerchantId(ACME, 'merchantA1'), [...used], n, opts.merchantA1 ?? false],
      );
      const ids = rows.map((r) => Number(r.id));
      if (ids.length < n) throw new Error('not enough sample cases');
      ids.forEach((id) => used.add(id));
      if (opts.status !== undefined)
        await db().query(`update cases.cases set status_id = $2 where id = any($1::bigint[])`, [
          ids,
          opts.status,
        ]);
      return ids;
    },
    /** A case of another merchant than merchant A1 (out of a merchant A1 user's scope). */
    async otherMerchantCase(status = 1) {
      const { rows } = await db().query<{ id: number }>(
        `select id from cases.cases where tenant_id = 'acme' and merchant_id <> $1 and status_id = $2
           and not (id = any($3::bigint[])) order by id limit 1`,
        [demoMerchantId(ACME, 'merchantA1'), status, [...used]],
      );
      const id = Number(rows[0]!.id);
      used.add(id);
      return id;
    },
    async history(id: number) {
      return (
        await db().query<{ action: string; username: string }>(
          `select action, username from cases.case_history where case_id = $1 order by id`,
          [id],
        )
      ).rows;
    },
    async row(id: number) {
      return (await db().query<Record<string, unknown>>(`select * from cases.cases where id = $1`, [id]))
        .rows[0]!;
    },
    async mark(id: number) {
      return (
        await db().query<{ type: string; status: number; username: string }>(
          `select type, status, username from cases.case_marks where case_id = $1`,
          [id],
        )
      ).rows[0];
    },
  };
}
