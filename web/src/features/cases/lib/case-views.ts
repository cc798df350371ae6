/** The four case list views (spec 2 §2.1). */
export type CaseView = 'chargebacks' | 'case-management' | 'qc-review' | 'admin-review';

export const VIEW_TITLES: Record<CaseView, string> = {
  chargebacks: 'Chargebacks',
  'case-management': 'Case Management',
  'qc-review': 'QC Review',
  'admin-review': 'Review',
};
