import { featureKeys, type CaseFacts } from './features';
import { fitLogistic, linearPredictor, sigmoid } from './logistic';

/** Grouped closed cases: `n` cases with these facts, `wins` of them won. */
export interface FactRow extends CaseFacts {
  n: number;
  wins: number;
}

/** A merchant gets its own weight only with this much history; the others share the intercept. */
export const MIN_MERCHANT_CASES = 30;
export const DEFAULT_LAMBDA = 2;

/** What win_odds_models.model stores: enough to score without the training data. */
export interface StoredModel {
  lambda: number;
  /** Feature key of weights[i + 1]; weights[0] is the intercept. */
  vocabulary: string[];
  weights: number[];
  merchants: number[];
  iterations: number;
  converged: boolean;
}

export interface Contribution {
  key: string;
  effect: number;
}

export function trainModel(rows: readonly FactRow[], lambda = DEFAULT_LAMBDA): StoredModel {
  const perMerchant = new Map<number, number>();
  for (const r of rows) perMerchant.set(r.merchant_id, (perMerchant.get(r.merchant_id) ?? 0) + r.n);
  const merchants = [...perMerchant]
    .filter(([, n]) => n >= MIN_MERCHANT_CASES)
    .map(([id]) => id)
    .sort((a, b) => a - b);
  const known = new Set(merchants);
  const keyed = rows.map((r) => ({ keys: featureKeys(r, known), n: r.n, wins: r.wins }));
  // Sorted keys: the same data gives the same vocabulary, so the same weights, on every run.
  const vocabulary = [...new Set(keyed.flatMap((r) => r.keys))].sort();
  const index = new Map(vocabulary.map((k, i) => [k, i + 1]));
  const grouped = keyed.map((r) => ({ features: r.keys.map((k) => index.get(k)!), n: r.n, wins: r.wins }));
  const fit = fitLogistic(grouped, vocabulary.length + 1, { lambda });
  return {
    lambda,
    vocabulary,
    weights: fit.weights,
    merchants,
    iterations: fit.iterations,
    converged: fit.converged,
  };
}

/** Lookups of a model, built once per model object (scoring runs over every open case). */
const lookups = new WeakMap<StoredModel, { index: Map<string, number>; merchants: Set<number> }>();

export function predictModel(
  model: StoredModel,
  facts: CaseFacts,
): { p: number; contributions: Contribution[] } {
  let l = lookups.get(model);
  if (!l) {
    l = { index: new Map(model.vocabulary.map((k, i) => [k, i + 1])), merchants: new Set(model.merchants) };
    lookups.set(model, l);
  }
  const { index } = l;
  const keys = featureKeys(facts, l.merchants).filter((k) => index.has(k));
  const features = keys.map((k) => index.get(k)!);
  const p = sigmoid(linearPredictor(model.weights, features));
  const contributions = keys.map((key) => ({ key, effect: model.weights[index.get(key)!]! }));
  return { p, contributions };
}

/** The largest contributions by size (ties by key: stable), at most `count`, none below 0.05 in log-odds. */
export function topFactors(contributions: readonly Contribution[], count = 3): Contribution[] {
  return [...contributions]
    .filter((c) => Math.abs(c.effect) >= 0.05)
    .sort((a, b) => Math.abs(b.effect) - Math.abs(a.effect) || a.key.localeCompare(b.key))
    .slice(0, count);
}

/**
 * The baseline: each reason code's historical win rate, pulled toward the
 * overall rate by PRIOR_CASES pseudo-cases so a code seen twice does not
 * claim 0% or 100%; an unseen code gets the overall rate.
 */
export const PRIOR_CASES = 10;
export interface StoredBaseline {
  overall: number;
  by_reason: Record<string, { n: number; wins: number; rate: number }>;
}

export function trainBaseline(rows: readonly FactRow[]): StoredBaseline {
  const n = rows.reduce((s, r) => s + r.n, 0);
  const wins = rows.reduce((s, r) => s + r.wins, 0);
  const overall = n ? wins / n : 0.5;
  const acc = new Map<number, { n: number; wins: number }>();
  for (const r of rows) {
    const a = acc.get(r.reason_code_id) ?? { n: 0, wins: 0 };
    a.n += r.n;
    a.wins += r.wins;
    acc.set(r.reason_code_id, a);
  }
  const by_reason: StoredBaseline['by_reason'] = {};
  for (const [id, a] of [...acc].sort((x, y) => x[0] - y[0]))
    by_reason[id] = { ...a, rate: (a.wins + PRIOR_CASES * overall) / (a.n + PRIOR_CASES) };
  return { overall, by_reason };
}

export function predictBaseline(baseline: StoredBaseline, reasonCodeId: number): number {
  return baseline.by_reason[reasonCodeId]?.rate ?? baseline.overall;
}
