import { describe, expect, it } from 'vitest';
import { brierScore, calibrationDeciles, evaluateHoldout } from './evaluation';
import { expectedValue, fightCosts } from './costs';
import { fitLogistic, sigmoid } from './logistic';
import {
  predictBaseline,
  predictModel,
  topFactors,
  trainBaseline,
  trainModel,
  type FactRow,
} from './win-odds-model';

/** A small deterministic generator (mulberry32): the tests draw the same cases every run. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Cases with a planted signal: Proof of Delivery (kind 2) adds +1.5 to the
 * log-odds, reason code 104 takes -1.0, the rest is noise around -0.3.
 */
function plantedCases(count: number, seed: number): FactRow[] {
  const next = rng(seed);
  const rows: FactRow[] = [];
  for (let i = 0; i < count; i++) {
    const pod = next() < 0.5;
    const rc = [101, 104, 131, 133][Math.floor(next() * 4)]!;
    const logit = -0.3 + (pod ? 1.5 : 0) + (rc === 104 ? -1.0 : 0);
    rows.push({
      reason_code_id: rc,
      card_type_id: 1 + Math.floor(next() * 4),
      cycle_id: 1,
      amount: Math.round(next() * 900 + 10),
      merchant_id: 1 + Math.floor(next() * 3),
      evidence_mask: (pod ? 1 << 2 : 0) | (1 << 1),
      days_left: Math.floor(next() * 20),
      n: 1,
      wins: next() < sigmoid(logit) ? 1 : 0,
    });
  }
  return rows;
}

const weightOf = (model: ReturnType<typeof trainModel>, key: string) =>
  model.weights[model.vocabulary.indexOf(key) + 1]!;

describe('L2 logistic regression (IRLS)', () => {
  it('learns a planted signal', () => {
    const model = trainModel(plantedCases(4000, 1), 1);
    expect(model.converged).toBe(true);
    // Evidence kind 2 is the largest effect, with the planted sign and about its size.
    expect(weightOf(model, 'ev:2')).toBeGreaterThan(1.1);
    expect(weightOf(model, 'ev:2')).toBeLessThan(1.9);
    // One-hot with every level: the planted -1.0 of code 104 shows against the other codes.
    const others = (weightOf(model, 'rc:101') + weightOf(model, 'rc:131') + weightOf(model, 'rc:133')) / 3;
    expect(others - weightOf(model, 'rc:104')).toBeGreaterThan(0.7);
    // Noise features stay small.
    expect(Math.abs(weightOf(model, 'net:3'))).toBeLessThan(0.3);
  });

  it('shrinks weights more as lambda grows, never the intercept', () => {
    const data = plantedCases(600, 2);
    const loose = trainModel(data, 0.01);
    const tight = trainModel(data, 200);
    const size = (m: ReturnType<typeof trainModel>) => m.weights.slice(1).reduce((s, w) => s + w * w, 0);
    expect(size(tight)).toBeLessThan(size(loose) / 4);
    // With every weight held near zero, the intercept carries the overall rate.
    const rate = data.reduce((s, r) => s + r.wins, 0) / data.length;
    expect(sigmoid(tight.weights[0]!)).toBeGreaterThan(rate - 0.1);
    expect(sigmoid(tight.weights[0]!)).toBeLessThan(rate + 0.1);
  });

  it('recovers an exact logistic fit from grouped counts without penalty', () => {
    // Two groups: feature 1 off wins 20%, on wins 80%: intercept log(1/4), weight log(16).
    const fit = fitLogistic(
      [
        { features: [], n: 100, wins: 20 },
        { features: [1], n: 100, wins: 80 },
      ],
      2,
      { lambda: 0 },
    );
    expect(fit.weights[0]).toBeCloseTo(Math.log(0.25), 6);
    expect(fit.weights[1]).toBeCloseTo(Math.log(16), 6);
  });

  it('is deterministic: the same data in any order gives the same weights', () => {
    const data = plantedCases(800, 3);
    const a = trainModel(data);
    const b = trainModel([...data].reverse());
    expect(b.vocabulary).toEqual(a.vocabulary);
    b.weights.forEach((w, i) => expect(w).toBeCloseTo(a.weights[i]!, 9));
  });

  it('names the factors that drive a prediction, largest first', () => {
    const model = trainModel(plantedCases(4000, 4), 1);
    const withPod = { ...plantedCases(1, 9)[0]!, reason_code_id: 104, evidence_mask: (1 << 2) | (1 << 1) };
    const { p, contributions } = predictModel(model, withPod);
    const without = predictModel(model, { ...withPod, evidence_mask: 1 << 1 }).p;
    expect(p).toBeGreaterThan(without);
    const top = topFactors(contributions, 2).map((c) => c.key);
    expect(top).toContain('ev:2');
    expect(top.length).toBeLessThanOrEqual(2);
  });
});

describe('evaluation', () => {
  it('Brier score: 0 when certain and right, 0.25 for a coin', () => {
    expect(brierScore([{ p: 1, n: 3, wins: 3 }])).toBe(0);
    expect(brierScore([{ p: 0.5, n: 10, wins: 4 }])).toBeCloseTo(0.25, 10);
  });

  it('calibration deciles cut equal counts, splitting a group across a cut', () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ p: i / 20, n: 1, wins: i >= 10 ? 1 : 0 }));
    rows.push({ p: 0.99, n: 5, wins: 5 });
    const d = calibrationDeciles(rows);
    expect(d).toHaveLength(10);
    expect(d.reduce((s, x) => s + x.n, 0)).toBe(25);
    expect(d[0]!.predicted).toBeLessThan(d[9]!.predicted);
    expect(d[9]!.actual).toBe(1);
  });

  it('the model beats the reason-code baseline when evidence carries the signal', () => {
    const { source, evaluation } = evaluateHoldout(
      plantedCases(3000, 5),
      plantedCases(1000, 6),
      '2026-01-01',
    );
    expect(source).toBe('model');
    expect(evaluation.brier_model!).toBeLessThan(evaluation.brier_baseline!);
    expect(evaluation.deciles_model).toHaveLength(10);
  });

  it('falls back to the baseline when the model cannot beat it', () => {
    // Outcomes depend on the reason code only: the model adds noise, the baseline is the truth.
    const next = rng(7);
    const draw = (count: number) =>
      plantedCases(count, 8 + count).map((r) => ({
        ...r,
        wins: next() < (r.reason_code_id === 104 ? 0.2 : 0.6) ? 1 : 0,
      }));
    const { source } = evaluateHoldout(draw(400), draw(3000), '2026-01-01', 0.001);
    expect(source).toBe('baseline');
  });

  it('says so when there are too few cases to test', () => {
    const { source, evaluation } = evaluateHoldout(plantedCases(50, 1), plantedCases(10, 2), null);
    expect(source).toBe('baseline');
    expect(evaluation.note).toContain('too few');
  });

  it('baseline: the reason code rate pulled toward the overall rate; unseen codes get the overall rate', () => {
    const b = trainBaseline([
      { ...plantedCases(1, 1)[0]!, reason_code_id: 1, n: 90, wins: 90 },
      { ...plantedCases(1, 1)[0]!, reason_code_id: 2, n: 10, wins: 0 },
    ]);
    expect(b.overall).toBeCloseTo(0.9);
    expect(predictBaseline(b, 2)).toBeCloseTo((0 + 10 * 0.9) / 20);
    expect(predictBaseline(b, 3)).toBeCloseTo(0.9);
  });
});

describe('expected value', () => {
  it('is p x amount less the fight fee and the handling cost', () => {
    const costs = fightCosts(undefined, 'acme');
    expect(expectedValue(0.5, 200, 1, 1, costs)).toBe(100 - 15 - 25);
    expect(expectedValue(0.9, 100, 2, 1, costs)).toBeLessThan(0);
  });

  it("takes the ledger's fees of the card network and cycle, the loss fee weighted by the chance of losing", () => {
    const costs = {
      ...fightCosts(undefined, 'acme'),
      ledger: [{ cycle: 'second', card_network: 'amex', network_fee: 10, processor_fee: 5, loss_fee: 500 }],
    };
    // 0.8 x 1000 - (10 + 5 + 0.2 x 500) - 25
    expect(expectedValue(0.8, 1000, 2, 3, costs)).toBe(800 - 115 - 25);
    // No ledger line for Visa's second cycle: the fee by cycle.
    expect(expectedValue(0.8, 1000, 2, 1, costs)).toBe(800 - 250 - 25);
  });
});
