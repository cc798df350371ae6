import type { WinOddsEvaluation, WinOddsFactor, WinOddsSource } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { AMOUNT_BANDS, DAYS_BANDS, type CaseFacts } from './features';
import type { FactRow, StoredBaseline, StoredModel } from './win-odds-model';

/** Verdicts that train: Win (4) and Loss (5); the others say nothing of the odds. */
const WIN = 4;
const LOSS = 5;
/**
 * Only represented cases train (TransportCompleted): the odds are those of winning if represented. A
 * case closed by Do Not Represent or by expiry is a Loss that was never fought, and would teach the
 * model that cases without evidence lose.
 */
const REPRESENTED = 10;

/** The SQL twin of amountBand/daysBand (features.ts): group by band, keep the band's smallest value. */
const bandSql = (expr: string, bands: ReadonlyArray<{ key: string }>, limits: number[], op: '<' | '<=') =>
  `case ${limits.map((l, i) => `when ${expr} ${op} ${l} then '${bands[i]!.key}'`).join(' ')} else '${bands[bands.length - 1]!.key}' end`;
const AMOUNT_BAND_SQL = bandSql(
  'c.dispute_amt',
  AMOUNT_BANDS,
  AMOUNT_BANDS.slice(0, -1).map((b) => b.below),
  '<',
);
const DAYS_LEFT_SQL = `(c.date_due - coalesce(e.first_attached_on, c.date_post))`;
const DAYS_BAND_SQL = bandSql(
  DAYS_LEFT_SQL,
  DAYS_BANDS,
  DAYS_BANDS.slice(0, -1).map((b) => b.upTo),
  '<=',
);

export interface ClosedCases {
  /** Cases closed before it train, the others test; null when the tenant has none. */
  cutoff: string | null;
  train: FactRow[];
  test: FactRow[];
}

/**
 * The tenant's represented closed cases with a verdict, grouped by their facts (a
 * 1,000,000-case tenant answers a few thousand rows), split by time: the
 * newest quarter by completion date is the holdout.
 */
export async function closedCases(db: Queryable, tenant: string): Promise<ClosedCases> {
  const { rows } = await db.query<{
    reason_code_id: number;
    card_type_id: number;
    cycle_id: number;
    amount: string;
    merchant_id: string;
    mask: number;
    days_left: number;
    is_test: boolean;
    cutoff: string;
    n: number;
    wins: number;
  }>(
    `with closed as (
       select c.reason_code_id, c.card_type_id, c.cycle_id, c.dispute_amt, c.merchant_id, c.date_completed,
         c.verdict_id, coalesce(e.kinds_mask, 0) as mask, ${DAYS_LEFT_SQL} as days_left,
         ${AMOUNT_BAND_SQL} as amt_band, ${DAYS_BAND_SQL} as days_band
       from cases.cases c left join cases.case_evidence e on e.case_id = c.id
       where c.tenant_id = $1 and c.status_id = ${REPRESENTED} and c.verdict_id in (${WIN}, ${LOSS})
         and c.date_completed is not null
     ),
     cut as (select percentile_disc(0.75) within group (order by date_completed) as cutoff from closed)
     select reason_code_id, card_type_id, cycle_id, min(dispute_amt)::text as amount, merchant_id, mask,
       min(days_left)::int as days_left, date_completed >= cut.cutoff as is_test,
       to_char(cut.cutoff, 'YYYY-MM-DD') as cutoff, count(*)::int as n,
       (count(*) filter (where verdict_id = ${WIN}))::int as wins
     from closed cross join cut
     group by reason_code_id, card_type_id, cycle_id, amt_band, merchant_id, mask, days_band, is_test, cut.cutoff
     order by 1, 2, 3, 4, 5, 6, 7, 8`,
    [tenant],
  );
  const out: ClosedCases = { cutoff: rows[0]?.cutoff ?? null, train: [], test: [] };
  for (const r of rows)
    (r.is_test ? out.test : out.train).push({
      reason_code_id: r.reason_code_id,
      card_type_id: r.card_type_id,
      cycle_id: r.cycle_id,
      amount: Number(r.amount),
      merchant_id: Number(r.merchant_id),
      evidence_mask: r.mask,
      days_left: r.days_left,
      n: r.n,
      wins: r.wins,
    });
  return out;
}

export interface OpenCase extends CaseFacts {
  id: number;
}

/**
 * Open cases to (re)score: all of them after a training (`modelId` is new to
 * them), else those changed since scored (the case or its evidence) or never
 * scored. Days left: as if represented today, or when its evidence went in.
 */
export async function openCasesToScore(db: Queryable, tenant: string, modelId: number): Promise<OpenCase[]> {
  const { rows } = await db.query<{
    id: string;
    reason_code_id: number;
    card_type_id: number;
    cycle_id: number;
    amount: string;
    merchant_id: string;
    mask: number;
    days_left: number;
  }>(
    `select c.id, c.reason_code_id, c.card_type_id, c.cycle_id, c.dispute_amt::text as amount, c.merchant_id,
       coalesce(e.kinds_mask, 0) as mask, greatest(c.date_due - coalesce(e.first_attached_on, current_date), 0) as days_left
     from cases.cases c
     left join cases.case_evidence e on e.case_id = c.id
     left join cases.win_odds_scores w on w.case_id = c.id
     where c.tenant_id = $1 and c.status_group_id in (1, 2)
       and (w.case_id is null or w.model_id <> $2 or w.scored_at < c.updated_at or w.scored_at < e.updated_at)
     order by c.id`,
    [tenant, modelId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    reason_code_id: r.reason_code_id,
    card_type_id: r.card_type_id,
    cycle_id: r.cycle_id,
    amount: Number(r.amount),
    merchant_id: Number(r.merchant_id),
    evidence_mask: r.mask,
    days_left: r.days_left,
  }));
}

export interface ScoreRow {
  case_id: number;
  probability: number;
  expected_value: number;
  recommendation: 'Fight' | 'Accept';
  factors: WinOddsFactor[];
}

/** Writes scores in batches of arrays (one statement per 2,000 cases, not one per case). */
export async function saveScores(
  db: Queryable,
  tenant: string,
  modelId: number,
  source: WinOddsSource,
  scores: readonly ScoreRow[],
): Promise<void> {
  for (let i = 0; i < scores.length; i += 2000) {
    const batch = scores.slice(i, i + 2000);
    await db.query(
      `insert into cases.win_odds_scores (case_id, tenant_id, model_id, source, probability, expected_value,
         recommendation, factors, scored_at)
       select s.case_id, $1, $2, $3, s.p, s.ev, s.rec, s.factors, now()
       from unnest($4::bigint[], $5::numeric[], $6::numeric[], $7::text[], $8::jsonb[])
         as s(case_id, p, ev, rec, factors)
       on conflict (case_id) do update set model_id = excluded.model_id, source = excluded.source,
         probability = excluded.probability, expected_value = excluded.expected_value,
         recommendation = excluded.recommendation, factors = excluded.factors, scored_at = excluded.scored_at`,
      [
        tenant,
        modelId,
        source,
        batch.map((s) => s.case_id),
        batch.map((s) => s.probability.toFixed(4)),
        batch.map((s) => s.expected_value.toFixed(2)),
        batch.map((s) => s.recommendation),
        batch.map((s) => JSON.stringify(s.factors)),
      ],
    );
  }
}

/** Scores of cases no longer open go: the lists show scores of open cases only. */
export async function dropClosedScores(db: Queryable, tenant: string): Promise<number> {
  const r = await db.query(
    `delete from cases.win_odds_scores w using cases.cases c
      where w.tenant_id = $1 and c.id = w.case_id and c.status_group_id not in (1, 2)`,
    [tenant],
  );
  return r.rowCount ?? 0;
}

export interface ModelRecord {
  id: number;
  trained_at: string;
  source: WinOddsSource;
  model: StoredModel | null;
  baseline: StoredBaseline;
  evaluation: WinOddsEvaluation;
  n_cases: number;
}

export async function insertModel(
  db: Queryable,
  tenant: string,
  m: Omit<ModelRecord, 'id' | 'trained_at'>,
  jobId: string | null,
): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `insert into cases.win_odds_models (tenant_id, source, model, baseline, evaluation, n_cases, job_id)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [
      tenant,
      m.source,
      JSON.stringify(m.model ?? {}),
      JSON.stringify(m.baseline),
      JSON.stringify(m.evaluation),
      m.n_cases,
      jobId,
    ],
  );
  return Number(rows[0]!.id);
}

export async function latestModel(db: Queryable, tenant: string): Promise<ModelRecord | null> {
  const { rows } = await db.query<
    Omit<ModelRecord, 'model'> & { model: StoredModel | Record<string, never> }
  >(
    `select id, to_char(trained_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as trained_at, source, model,
       baseline, evaluation, n_cases
     from cases.win_odds_models where tenant_id = $1 order by trained_at desc, id desc limit 1`,
    [tenant],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    ...r,
    id: Number(r.id),
    model: 'weights' in r.model ? (r.model as StoredModel) : null,
  };
}

export async function countScored(db: Queryable, tenant: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from cases.win_odds_scores where tenant_id = $1`,
    [tenant],
  );
  return rows[0]?.n ?? 0;
}
