import { EVIDENCE_KINDS } from '@portal/contracts';

/**
 * What the model knows of a case (issue 33): reason code, card network,
 * cycle, amount band, merchant, the evidence kinds attached and the days
 * left to answer. Each becomes one-hot keys (`rc:101`, `ev:2`, ...); every
 * level has its own weight and the L2 penalty keeps rare levels near zero,
 * so no reference level is needed and a factor reads as its own weight.
 */
export interface CaseFacts {
  reason_code_id: number;
  card_type_id: number;
  cycle_id: number;
  amount: number;
  merchant_id: number;
  /** Bit k set: evidence kind k attached. */
  evidence_mask: number;
  days_left: number;
}

/** Amount bands (case currency): the SQL of training-data.ts draws the same lines. */
export const AMOUNT_BANDS = [
  { key: 'lt50', below: 50, label: 'under 50' },
  { key: '50-200', below: 200, label: '50 to 200' },
  { key: '200-1000', below: 1000, label: '200 to 1,000' },
  { key: '1000+', below: Infinity, label: '1,000 or more' },
] as const;

export const DAYS_BANDS = [
  { key: '0-3', upTo: 3, label: '3 days or fewer left' },
  { key: '4-10', upTo: 10, label: '4 to 10 days left' },
  { key: '11-20', upTo: 20, label: '11 to 20 days left' },
  { key: '21+', upTo: Infinity, label: 'more than 20 days left' },
] as const;

export function amountBand(amount: number): string {
  return AMOUNT_BANDS.find((b) => amount < b.below)!.key;
}

export function daysBand(days: number): string {
  return DAYS_BANDS.find((b) => days <= b.upTo)!.key;
}

export const evidenceKindsOf = (mask: number) =>
  Object.keys(EVIDENCE_KINDS)
    .map(Number)
    .filter((k) => (mask & (1 << k)) !== 0);

/**
 * The keys of a case. Merchants outside `merchants` (the ones with enough
 * history, chosen at training) get no merchant key.
 */
export function featureKeys(f: CaseFacts, merchants?: ReadonlySet<number>): string[] {
  const keys = [
    `rc:${f.reason_code_id}`,
    `net:${f.card_type_id}`,
    `cycle:${f.cycle_id}`,
    `amt:${amountBand(f.amount)}`,
    `days:${daysBand(f.days_left)}`,
  ];
  if (!merchants || merchants.has(f.merchant_id)) keys.push(`merchant:${f.merchant_id}`);
  for (const k of evidenceKindsOf(f.evidence_mask)) keys.push(`ev:${k}`);
  return keys;
}

/** Names a person reads for a key; the lookups come from the reference data. */
export interface FeatureNames {
  reasonCode(id: number): string;
  network(id: number): string;
  cycle(id: number): string;
  merchant(id: number): string;
}

export function describeKey(key: string, names: FeatureNames): string {
  const [kind, raw = ''] = key.split(':');
  const id = Number(raw);
  switch (kind) {
    case 'rc':
      return `Reason code ${names.reasonCode(id)}`;
    case 'net':
      return `Card network ${names.network(id)}`;
    case 'cycle':
      return names.cycle(id);
    case 'amt':
      return `Amount ${AMOUNT_BANDS.find((b) => b.key === raw)?.label ?? raw}`;
    case 'days':
      return DAYS_BANDS.find((b) => b.key === raw)?.label ?? raw;
    case 'merchant':
      return `Merchant ${names.merchant(id)}`;
    case 'ev':
      return `${EVIDENCE_KINDS[id] ?? 'Evidence'} attached`;
    default:
      return key;
  }
}
