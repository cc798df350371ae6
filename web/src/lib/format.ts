/** Numbers and money in US format with two decimals (spec 1 §9). */
const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatMoney(value: number | null | undefined, currency = 'USD'): string {
  if (value == null || Number.isNaN(value)) return '';
  const sign = value < 0 ? '-' : '';
  const symbol = currency === 'USD' ? '$' : `${currency} `;
  return `${sign}${symbol}${money.format(Math.abs(value))}`;
}

export function formatNumber(value: number | null | undefined, decimals = 2): string {
  if (value == null || Number.isNaN(value)) return '';
  if (decimals === 0) return integer.format(value);
  return new Intl.NumberFormat('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

export function formatCount(value: number | null | undefined): string {
  return formatNumber(value, 0);
}

/** A ratio (0..1) or a percentage (0..100) shown as '12.34%'. */
export function formatPercent(value: number | null | undefined, isRatio = false): string {
  if (value == null || Number.isNaN(value)) return '';
  return `${formatNumber(isRatio ? value * 100 : value, 2)}%`;
}
