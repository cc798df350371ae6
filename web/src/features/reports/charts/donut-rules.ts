/** Chart constants and donut rules of the reports (spec 2 §9, spec 3 §9). */
export const DONUT_HEIGHT = 380;
export const CHART_HEIGHT = 325;
export const EMPTY_CHART_HEIGHT = 335;
/** Percent axes stop at 100 with 10% headroom over the largest value. */
export const PERCENT_HEADROOM = 1.1;
export const BAR_MAX_SIZE = 100;
export const NO_DATA = 'No Data';

export const PALETTE = [
  '#2b6cb0',
  '#38a169',
  '#d69e2e',
  '#e53e3e',
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

/** The top of a percent axis: the largest value with headroom, capped at 100. */
export const percentAxisMax = (values: number[]): number =>
  Math.min(100, Math.max(1, ...values) * PERCENT_HEADROOM);
