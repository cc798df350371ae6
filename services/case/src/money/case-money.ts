import type { CaseMoney } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { findCase } from '../cases/case-repository';
import type { Scope } from '../scope/scope';

const amount = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 100) / 100);
const net = (recovered: number | null, fees: number | null) =>
  recovered === null || fees === null ? null : Math.round((recovered - fees) * 100) / 100;

/** A case's money columns (migration 040) in the caller's scope; null when the case is not there. */
export async function caseMoney(db: Queryable, scope: Scope, id: number): Promise<CaseMoney | null> {
  if (!(await findCase(db, scope, id))) return null;
  const { rows } = await db.query<Record<string, unknown>>(
    `select c.dispute_amt, cur.code as currency, rep.code as reporting, c.money_rate, c.money_recovered,
       c.money_lost, c.money_fees, c.rep_disputed, c.rep_recovered, c.rep_lost, c.rep_fees
     from cases.cases c join cases.currencies cur on cur.id = c.dispute_currency_id
     join cases.currencies rep
       on rep.id = coalesce((select reporting_currency_id from cases.money_settings where tenant_id = c.tenant_id), 1)
     where c.id = $1`,
    [id],
  );
  const r = rows[0]!;
  const rated = r.money_rate !== null;
  const recovered = amount(r.money_recovered);
  const fees = amount(r.money_fees);
  const repRecovered = amount(r.rep_recovered);
  const repFees = rated ? amount(r.rep_fees) : null;
  return {
    case_id: id,
    case_currency: {
      currency: String(r.currency),
      disputed: amount(r.dispute_amt),
      recovered,
      lost: amount(r.money_lost),
      fees,
      net: net(recovered, fees),
    },
    reporting_currency: {
      currency: String(r.reporting),
      disputed: amount(r.rep_disputed),
      recovered: repRecovered,
      lost: amount(r.rep_lost),
      fees: repFees,
      net: net(repRecovered, repFees),
    },
    rate: rated ? Number(r.money_rate) : null,
  };
}
