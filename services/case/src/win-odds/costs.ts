import { readTenantFile } from '@portal/core';

/**
 * The costs of fighting a case, for expected value = p x amount - fees -
 * handling cost (issue 33). From the tenant file's `win_odds` block
 * (handling_cost, fight_fees by cycle id), else these defaults; the fees of
 * the money ledger's `fees` section (issue 33 part 1: network + processor
 * fee by card network and cycle) win when the tenant file has it. Amounts
 * are taken in the case currency (no conversion).
 */
export const DEFAULT_HANDLING_COST = 25;
/** A first chargeback's representment fee, a second cycle's pre-arbitration/arbitration risk (spec: up to $1000), none for a retrieval. */
export const DEFAULT_FIGHT_FEES: Readonly<Record<number, number>> = { 1: 15, 2: 250, 9: 0 };

export interface FightCosts {
  handlingCost: number;
  feeByCycle: Record<number, number>;
  /** The ledger's fee rows when the tenant file has them. */
  ledger: LedgerFee[] | null;
  /** Where the numbers came from, for the admin screen. */
  from: string;
}

/** The ledger's fee rows (tenant file `fees`, issue 33 part 1), read loosely: its schema is the ledger's. */
interface LedgerFee {
  cycle: string;
  card_network: string;
  network_fee: number;
  processor_fee: number;
  /** Charged only when the case is lost (arbitration): weighted by the chance of losing. */
  loss_fee?: number;
}
const CYCLE_NAMES: Readonly<Record<number, string>> = { 1: 'first', 2: 'second', 9: 'rfi' };
const NETWORK_NAMES: Readonly<Record<number, string>> = {
  1: 'visa',
  2: 'mastercard',
  3: 'amex',
  4: 'discover',
};

function ledgerFees(config: unknown): LedgerFee[] | null {
  const fees = (config as { fees?: unknown } | null)?.fees;
  if (!Array.isArray(fees) || !fees.length) return null;
  return fees.filter(
    (f): f is LedgerFee =>
      typeof f === 'object' && f !== null && typeof (f as LedgerFee).network_fee === 'number',
  );
}

export function fightCosts(configDir: string | undefined, tenant: string): FightCosts {
  let config: unknown = null;
  try {
    config = configDir ? (readTenantFile(configDir, tenant)?.config ?? null) : null;
  } catch {
    config = null; // an invalid file: the gateway refuses it; scoring keeps the defaults
  }
  const block = (
    config as { win_odds?: { handling_cost?: number; fight_fees?: Record<string, number> } } | null
  )?.win_odds;
  const feeByCycle: Record<number, number> = { ...DEFAULT_FIGHT_FEES };
  for (const [cycle, fee] of Object.entries(block?.fight_fees ?? {})) feeByCycle[Number(cycle)] = fee;
  const ledger = ledgerFees(config);
  return {
    handlingCost: block?.handling_cost ?? DEFAULT_HANDLING_COST,
    feeByCycle,
    ledger,
    from:
      (ledger
        ? 'fees: tenant file (fees)'
        : block?.fight_fees
          ? 'fees: tenant file (win_odds)'
          : 'fees: defaults') +
      (block?.handling_cost !== undefined
        ? '; handling cost: tenant file (win_odds)'
        : '; handling cost: default'),
  };
}

/**
 * The expected fees of fighting: the ledger's network + processor fee for the card network and cycle,
 * plus its loss fee times the chance of losing; else the fee by cycle.
 */
export function fightFee(p: number, cycleId: number, cardTypeId: number, costs: FightCosts): number {
  const row = costs.ledger?.find(
    (f) => f.cycle === CYCLE_NAMES[cycleId] && f.card_network === NETWORK_NAMES[cardTypeId],
  );
  if (row) return row.network_fee + row.processor_fee + (1 - p) * (row.loss_fee ?? 0);
  return costs.feeByCycle[cycleId] ?? 0;
}

export function expectedValue(
  p: number,
  amount: number,
  cycleId: number,
  cardTypeId: number,
  costs: FightCosts,
): number {
  return Math.round((p * amount - fightFee(p, cycleId, cardTypeId, costs) - costs.handlingCost) * 100) / 100;
}
