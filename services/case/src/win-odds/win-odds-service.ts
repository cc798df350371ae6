import type { WinOddsFactor } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { reference } from '../reference/reference';
import { expectedValue, fightCosts } from './costs';
import { evaluateHoldout } from './evaluation';
import { describeKey, type FeatureNames } from './features';
import {
  closedCases,
  dropClosedScores,
  insertModel,
  latestModel,
  openCasesToScore,
  saveScores,
  type ModelRecord,
  type ScoreRow,
} from './win-odds-repository';
import { predictBaseline, predictModel, topFactors, trainBaseline, trainModel } from './win-odds-model';

export interface TrainOutcome {
  model_id: number;
  source: 'model' | 'baseline';
  scored: number;
  brier_model: number | null;
  brier_baseline: number | null;
}

/**
 * One tenant's training (issue 33): the holdout decides which of model and
 * baseline the portal shows; both are then fitted again on every closed case
 * (the holdout was for judging, the newest cases teach the most) and stored,
 * and every open case is scored with the one shown. Reads only this tenant's
 * rows, so no tenant's history ever informs another's odds.
 */
export async function trainTenant(
  db: Queryable,
  tenant: string,
  opts: {
    configDir?: string;
    jobId?: string | null;
    progress?: (pct: number, msg: string) => Promise<void>;
  } = {},
): Promise<TrainOutcome> {
  const progress = opts.progress ?? (async () => {});
  await progress(10, 'Reading the closed cases');
  const data = await closedCases(db, tenant);
  await progress(40, 'Testing the model on the newest cases');
  const { evaluation, source } = evaluateHoldout(data.train, data.test, data.cutoff);
  const all = [...data.train, ...data.test];
  await progress(70, 'Training on every closed case');
  const model = all.length ? trainModel(all) : null;
  const baseline = trainBaseline(all);
  const modelId = await insertModel(
    db,
    tenant,
    { source, model, baseline, evaluation, n_cases: all.reduce((s, r) => s + r.n, 0) },
    opts.jobId ?? null,
  );
  await progress(85, 'Scoring the open cases');
  const scored = await refreshScores(db, tenant, opts.configDir);
  return {
    model_id: modelId,
    source,
    scored,
    brier_model: evaluation.brier_model,
    brier_baseline: evaluation.brier_baseline,
  };
}

/**
 * Scores the open cases that changed since scored, were never scored, or
 * were scored by an older model; drops the scores of closed cases. Answers
 * how many were scored.
 */
export async function refreshScores(db: Queryable, tenant: string, configDir?: string): Promise<number> {
  const current = await latestModel(db, tenant);
  await dropClosedScores(db, tenant);
  if (!current) return 0;
  const cases = await openCasesToScore(db, tenant, current.id);
  if (!cases.length) return 0;
  const names = await featureNames(
    db,
    tenant,
    cases.map((c) => c.merchant_id),
  );
  const costs = fightCosts(configDir, tenant);
  const scores: ScoreRow[] = cases.map((c) => {
    const { p, factors } = scoreOne(current, c, names);
    const ev = expectedValue(p, c.amount, c.cycle_id, c.card_type_id, costs);
    return {
      case_id: c.id,
      probability: p,
      expected_value: ev,
      recommendation: ev > 0 ? 'Fight' : 'Accept',
      factors,
    };
  });
  await saveScores(db, tenant, current.id, current.source, scores);
  return scores.length;
}

function scoreOne(
  current: ModelRecord,
  c: Parameters<typeof predictModel>[1],
  names: FeatureNames,
): { p: number; factors: WinOddsFactor[] } {
  if (current.source === 'model' && current.model) {
    const { p, contributions } = predictModel(current.model, c);
    return {
      p,
      factors: topFactors(contributions).map((f) => ({
        label: describeKey(f.key, names),
        effect: Math.round(f.effect * 100) / 100,
      })),
    };
  }
  const p = predictBaseline(current.baseline, c.reason_code_id);
  const seen = current.baseline.by_reason[c.reason_code_id];
  return {
    p,
    factors: [
      {
        label: seen
          ? `Reason code ${names.reasonCode(c.reason_code_id)}: won ${seen.wins} of ${seen.n} closed cases`
          : `Reason code ${names.reasonCode(c.reason_code_id)}: no closed cases yet (overall rate)`,
        effect: 0,
      },
    ],
  };
}

async function featureNames(db: Queryable, tenant: string, merchantIds: number[]): Promise<FeatureNames> {
  const ref = await reference(db);
  const { rows } = await db.query<{ id: string; business_name: string }>(
    `select id, business_name from cases.merchants where tenant_id = $1 and id = any($2::bigint[])`,
    [tenant, [...new Set(merchantIds)]],
  );
  const merchants = new Map(rows.map((r) => [Number(r.id), r.business_name]));
  return {
    reasonCode: (id) => ref.reasonCodes.get(id)?.code ?? String(id),
    network: (id) => ref.cardTypes.get(id) ?? String(id),
    cycle: (id) => ref.cycles.get(id) ?? `Cycle ${id}`,
    merchant: (id) => merchants.get(id) ?? String(id),
  };
}
