/** MM/dd/yyyy (spec 2 §9) from an ISO date or timestamp. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${m}/${d}/${y}`;
}

/** MM/dd/yyyy hh:mm (UTC) for timestamps. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  return `${formatDate(iso)} ${iso.slice(11, 16)}`;
}
