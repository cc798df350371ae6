/** Chart constants and donut rules of the reports (spec 2 §9, spec 3 §9). */
import type { ReportRow } from '@portal/contracts';

export const DONUT_HEIGHT = 380;
export const CHART_HEIGHT = 325;
export const EMPTY_CHART_HEIGHT = 335;
/** Percent axes stop at 100 with 10% headroom over the largest value (then rounded up to a nice step). */
export const PERCENT_HEADROOM = 1.1;
export const BAR_MAX_SIZE = 100;
export const NO_DATA = 'No Data';

// Red is #c53030, not #e53e3e: a slice label on it reaches 4.5:1 (components/charts/label-colors.ts).
export const PALETTE = [
  '#2b6cb0',
  '#38a169',
  '#d69e2e',
  '#c53030',
  '#805ad5',
  '#319795',
  '#dd6b20',
  '#b83280',
];
export const GREY = '#a0aec0';

/** Slices named 'other…' or 'pending…' are grey; the rest take the palette in order. */
export function donutColors(labels: string[]): string[] {
  let next = 0;
  return labels.map((l) => (/^(other|pending)/i.test(l.trim()) ? GREY : PALETTE[next++ % PALETTE.length]!));
}

/** Index of the largest slice (highlighted), -1 when there is none. */
export function largestSlice(values: number[]): number {
  let best = -1;
  values.forEach((v, i) => {
    if (v > 0 && (best === -1 || v > values[best]!)) best = i;
  });
  return best;
}

/** Slice labels under 1 percent are hidden. */
export const donutLabel = (percent: number): string => (percent < 1 ? '' : `${percent.toFixed(1)}%`);

/** One slice of a donut: its name, its count and the percent its label shows. */
export interface Slice {
  label: string;
  value: number;
  /** The API's percent of every chargeback of the selection; else the slice's share of the ring. */
  percent?: number;
  /** The rest of a top-N chart: grey, and never the highlighted slice. */
  other?: boolean;
}

/** The name of the slice of a top-N chart that holds every chargeback outside the top N. */
export const otherLabel = (limit: number) => `Other (not in top ${limit})`;

/** count / base * 100 with two decimals, as the API rounds its `percent`. */
const percentOf = (count: number, base: number) => (base > 0 ? Math.round((count / base) * 10_000) / 100 : 0);

/**
 * The slices of a report donut. A top-N report answers its N largest rows, each with its percent of
 * every chargeback of the selection, and that `total`: the chargebacks outside the top N become one
 * grey 'Other' slice, so that each slice's share of the ring, and its label, is the API's percent
 * (10.4 at 29.21% of all chargebacks, not 68.4% of the top 5's).
 */
export function reportSlices(rows: readonly ReportRow[], total: number, limit?: number): Slice[] {
  const slices: Slice[] = rows.map((r) => ({ label: r.label, value: r.count, percent: r.percent }));
  const rest = total - rows.reduce((sum, r) => sum + r.count, 0);
  if (limit && rest > 0)
    slices.push({ label: otherLabel(limit), value: rest, percent: percentOf(rest, total), other: true });
  return slices;
}

/** The highlighted slice: the largest, the 'Other' slice of a top-N chart aside; -1 when there is none. */
export const highlightedSlice = (slices: readonly Slice[]): number =>
  largestSlice(slices.map((s) => (s.other ? 0 : s.value)));

/** A percent axis: its top, how many steps (ticks) it has and the decimals its labels need. */
export interface PercentAxis {
  max: number;
  tickAmount: number;
  decimals: number;
}

const TICKS = 5;

/**
 * A percent axis scaled to the data (issue 29): the largest value with 10%
 * headroom, rounded up to a nice step (1, 2, 2.5 or 5 times a power of ten,
 * about five steps), capped at 100. Values near 0.2% give 0-0.25% in steps of
 * 0.05 (it was 0-1.1%, the data a flat line at the bottom); with no data 0-1%.
 */
export function percentAxis(values: number[]): PercentAxis {
  const top = Math.max(0, ...values.filter((v) => Number.isFinite(v))) * PERCENT_HEADROOM;
  if (top <= 0) return { max: 1, tickAmount: TICKS, decimals: 1 };
  const raw = Math.min(top, 100) / TICKS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const mantissa = [1, 2, 2.5, 5, 10].find((m) => m * power >= raw - 1e-12) ?? 10;
  const step = mantissa * power;
  const max = Math.min(100, +(step * Math.ceil(top / step - 1e-9)).toPrecision(12));
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9) + (mantissa === 2.5 ? 1 : 0));
  return { max, tickAmount: Math.max(1, Math.round(max / step)), decimals };
}

/** The top of a percent axis (percentAxis's max). */
export const percentAxisMax = (values: number[]): number => percentAxis(values).max;
