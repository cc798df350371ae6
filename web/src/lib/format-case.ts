import { formatNumber } from './format';

/** 'yyyy-MM-dd...' -> 'MM/dd/yyyy' without a time-zone shift (spec 2 §9). */
export function formatCaseDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : value;
}

/** Money with 2 decimals, en-US (spec 2 §2.1). */
export function formatCaseMoney(value: number | null | undefined): string {
  return formatNumber(value, 2);
}

/** PDF cell text: the reason code message cut to 10 words plus an ellipsis. */
export function cutWords(text: string, words = 10): string {
  const parts = text.trim().split(/\s+/);
  return parts.length > words ? `${parts.slice(0, words).join(' ')}...` : text;
}
