/**
 * L2-regularised logistic regression fitted by IRLS (Newton's method), on
 * sparse binary rows with counts: each row is a set of active feature
 * indices shared by `n` cases of which `wins` were won. Grouping identical
 * rows in SQL keeps a 1,000,000-case tenant to a few thousand rows.
 *
 * Why our own code (issue 33): the maintained npm option, ml-logistic-regression
 * 2.0, fits by fixed-step gradient descent with no penalty and no case
 * weights; tfjs is megabytes for one dot product. Fifty lines of Newton on a
 * p x p system (p ~ 150) converge in a handful of steps, give the same
 * answer on every run, and leave the coefficients in a form the factors
 * explain.
 *
 * The intercept (index 0) is not penalised; every other weight is shrunk by
 * `lambda` (in cases: lambda = 1 costs a weight as much as one case's log-loss).
 */
export interface GroupedRow {
  /** Active feature indices (>= 1; 0 is the intercept, always on). */
  features: readonly number[];
  n: number;
  wins: number;
}

export interface FitOptions {
  lambda?: number;
  maxIterations?: number;
  tolerance?: number;
}

export interface FitResult {
  weights: number[];
  iterations: number;
  converged: boolean;
}

export const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

export function linearPredictor(weights: readonly number[], features: readonly number[]): number {
  let eta = weights[0] ?? 0;
  for (const f of features) eta += weights[f] ?? 0;
  return eta;
}

export function fitLogistic(rows: readonly GroupedRow[], p: number, options: FitOptions = {}): FitResult {
  const lambda = options.lambda ?? 1;
  const maxIterations = options.maxIterations ?? 50;
  const tolerance = options.tolerance ?? 1e-8;
  if (lambda < 0) throw new Error('lambda must be >= 0');
  const w = new Array<number>(p).fill(0);
  // Start the intercept at the overall log-odds: fewer steps, same optimum.
  const n = rows.reduce((s, r) => s + r.n, 0);
  const wins = rows.reduce((s, r) => s + r.wins, 0);
  if (n > 0) w[0] = Math.log((wins + 0.5) / (n - wins + 0.5));
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    const grad = new Float64Array(p);
    const hess = new Float64Array(p * p);
    for (const row of rows) {
      const mu = sigmoid(linearPredictor(w, row.features));
      const g = row.wins - row.n * mu;
      const h = row.n * mu * (1 - mu);
      const idx = [0, ...row.features];
      for (const a of idx) {
        grad[a]! += g;
        for (const b of idx) hess[a * p + b]! += h;
      }
    }
    for (let j = 1; j < p; j++) {
      grad[j]! -= lambda * w[j]!;
      hess[j * p + j]! += lambda;
    }
    // A tiny ridge on the diagonal keeps an unused (all-zero) column solvable when lambda is 0.
    for (let j = 0; j < p; j++) hess[j * p + j]! += 1e-9;
    const step = solveSymmetric(hess, grad, p);
    let largest = 0;
    for (let j = 0; j < p; j++) {
      w[j]! += step[j]!;
      largest = Math.max(largest, Math.abs(step[j]!));
    }
    if (largest < tolerance) return { weights: w, iterations: iteration, converged: true };
  }
  return { weights: w, iterations: maxIterations, converged: false };
}

/** Solves A x = b for a symmetric positive definite A (row-major p x p) by Cholesky. */
export function solveSymmetric(a: Float64Array, b: Float64Array, p: number): Float64Array {
  const l = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i * p + j]!;
      for (let k = 0; k < j; k++) sum -= l[i * p + k]! * l[j * p + k]!;
      if (i === j) {
        if (sum <= 0) throw new Error('The system is not positive definite');
        l[i * p + i] = Math.sqrt(sum);
      } else l[i * p + j] = sum / l[j * p + j]!;
    }
  }
  const y = new Float64Array(p);
  for (let i = 0; i < p; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= l[i * p + k]! * y[k]!;
    y[i] = sum / l[i * p + i]!;
  }
  const x = new Float64Array(p);
  for (let i = p - 1; i >= 0; i--) {
    let sum = y[i]!;
    for (let k = i + 1; k < p; k++) sum -= l[k * p + i]! * x[k]!;
    x[i] = sum / l[i * p + i]!;
  }
  return x;
}
