import { REMEDY_ELIGIBILITY, REMEDY_FEATURE, UPLOADABLE_STATUSES } from '@portal/contracts';
import { tenantFlag } from './tenant-features';

interface RemedyFacts {
  tenant_id: string;
  card_type_id: number;
  reason_code: string;
  cycle_id: number;
  status_id: number;
  /** A remedy was already submitted (or is being attached) for the case. */
  remedy_submitted: boolean;
}

/**
 * CE 3.0 eligibility (spec 2 §2.8, issue 13): Visa, reason code 10.4 (card
 * absent fraud), first cycle, not yet defended (no remedy yet and still in a
 * status a first representment may start from: New, Working, or 16 while the
 * upload modal holds it), and the tenant's HAS_REMEDY feature.
 */
export function canRemedy(r: RemedyFacts): boolean {
  return (
    r.card_type_id === REMEDY_ELIGIBILITY.cardTypeId &&
    r.reason_code === REMEDY_ELIGIBILITY.reasonCode &&
    r.cycle_id === REMEDY_ELIGIBILITY.cycleId &&
    UPLOADABLE_STATUSES.includes(r.status_id) &&
    !r.remedy_submitted &&
    tenantFlag(r.tenant_id, REMEDY_FEATURE)
  );
}
