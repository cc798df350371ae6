import { WIN_ODDS_MESSAGES, type CalibrationDecile, type WinOddsEvaluation } from '@portal/contracts';
import { predictBaseline, predictModel, trainBaseline, trainModel, type FactRow } from './win-odds-model';

/** A prediction for `n` cases of which `wins` were won. */
export interface Scored {
  p: number;
  n: number;
  wins: number;
}

/** Mean squared error of the probability against the outcome (0 perfect, 0.25 a coin's 50%). */
export function brierScore(rows: readonly Scored[]): number {
  let n = 0;
  let sum = 0;
  for (const r of rows) {
    n += r.n;
    sum += r.wins * (1 - r.p) ** 2 + (r.n - r.wins) * r.p ** 2;
  }
  return n ? sum / n : 0;
}

/**
 * Calibration by deciles of the prediction: cases sorted by probability,
 * cut into ten equal counts; each decile's mean prediction against its
 * actual win rate. A group of identical cases that straddles a cut is
 * split between the two deciles in proportion (wins too).
 */
export function calibrationDeciles(rows: readonly Scored[]): CalibrationDecile[] {
  const sorted = [...rows].filter((r) => r.n > 0).sort((a, b) => a.p - b.p);
  const total = sorted.reduce((s, r) => s + r.n, 0);
  const bins = Array.from({ length: 10 }, () => ({ n: 0, p: 0, wins: 0 }));
  if (!total) return [];
  let seen = 0;
  for (const r of sorted) {
    let left = r.n;
    while (left > 1e-9) {
      const bin = Math.min(9, Math.floor((seen / total) * 10 + 1e-9));
      const room = ((bin + 1) * total) / 10 - seen;
      const take = bin === 9 ? left : Math.min(left, Math.max(room, 1e-9));
      const b = bins[bin]!;
      b.n += take;
      b.p += take * r.p;
      b.wins += (take / r.n) * r.wins;
      seen += take;
      left -= take;
    }
  }
  // Counts rounded on the running total, so they add up to the cases tested.
  let before = 0;
  return bins.map((b, i) => ({
    decile: i + 1,
    n: -before + (before = Math.round(bins.slice(0, i + 1).reduce((s, x) => s + x.n, 0))),
    predicted: b.n ? round4(b.p / b.n) : 0,
    actual: b.n ? round4(b.wins / b.n) : 0,
  }));
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** Fewer closed cases than this in the holdout (or in training): the baseline is shown. */
export const MIN_TEST_CASES = 50;
export const MIN_TRAIN_CASES = 200;

/**
 * The honest comparison (issue 33 part 3): the model and the baseline are
 * both fitted on the older cases and both predict the newer ones; the model
 * is shown only when its Brier score is lower.
 */
export function evaluateHoldout(
  train: readonly FactRow[],
  test: readonly FactRow[],
  cutoff: string | null,
  lambda?: number,
): { evaluation: WinOddsEvaluation; source: 'model' | 'baseline' } {
  const nTrain = train.reduce((s, r) => s + r.n, 0);
  const nTest = test.reduce((s, r) => s + r.n, 0);
  if (nTrain < MIN_TRAIN_CASES || nTest < MIN_TEST_CASES)
    return {
      source: 'baseline',
      evaluation: {
        cutoff,
        n_train: nTrain,
        n_test: nTest,
        brier_model: null,
        brier_baseline: null,
        deciles_model: [],
        deciles_baseline: [],
        note: WIN_ODDS_MESSAGES.tooFew(nTrain + nTest),
      },
    };
  const model = trainModel(train, lambda);
  const baseline = trainBaseline(train);
  const byModel = test.map((r) => ({ p: predictModel(model, r).p, n: r.n, wins: r.wins }));
  const byBaseline = test.map((r) => ({
    p: predictBaseline(baseline, r.reason_code_id),
    n: r.n,
    wins: r.wins,
  }));
  const brierModel = brierScore(byModel);
  const brierBaseline = brierScore(byBaseline);
  const source = brierModel < brierBaseline ? 'model' : 'baseline';
  return {
    source,
    evaluation: {
      cutoff,
      n_train: nTrain,
      n_test: nTest,
      brier_model: round6(brierModel),
      brier_baseline: round6(brierBaseline),
      deciles_model: calibrationDeciles(byModel),
      deciles_baseline: calibrationDeciles(byBaseline),
      note:
        source === 'model'
          ? WIN_ODDS_MESSAGES.modelShown(brierModel, brierBaseline)
          : WIN_ODDS_MESSAGES.baselineShown(brierModel, brierBaseline),
    },
  };
}

const round6 = (x: number) => Math.round(x * 1_000_000) / 1_000_000;
