import { MERCHANT_FEATURE } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { caseColumns, type ColumnAccess } from './case-columns';

const keys = (view: Parameters<typeof caseColumns>[0], roles: string[], access: ColumnAccess) =>
  caseColumns(view, roles, access).map((c) => c.key);
const ALL: ColumnAccess = {
  features: new Set(Object.values(MERCHANT_FEATURE)),
  partnerCompanyId: true,
};
const NONE: ColumnAccess = { features: new Set(), partnerCompanyId: false };

describe('case columns', () => {
  it('gives the chargebacks view its 23 spec columns plus Document for a partner admin', () => {
    const cols = caseColumns('chargebacks', ['partner_admin'], ALL).filter((c) => !c.hidden);
    expect(cols.map((c) => c.label)).toEqual([
      'Merchant',
      'Actions',
      'Due Date',
      'Win Odds',
      'Outcome',
      'CB ID',
      'Case Number',
      'Order ID',
      'Cycle',
      'MID',
      'Mid Alias',
      'Card Type',
      'Reason Code',
      'Reason Category',
      'Post Date',
      'Dispute Amt',
      'Dispute Currency',
      'Trans. Date',
      'Trans. Amt',
      'Trans. Currency',
      'Card Number',
      'Status',
      'ARN',
      'Completed Date',
      'Document',
    ]);
  });

  it('hides the verdict, processor and partner company id columns without their permission', () => {
    expect(keys('chargebacks', ['cb911_manager'], ALL)).toEqual(
      expect.arrayContaining(['verdict', 'processor', 'partner_company_id']),
    );
    const none = keys('chargebacks', ['cb911_manager'], NONE);
    expect(none).not.toContain('verdict');
    expect(none).not.toContain('processor');
    expect(none).not.toContain('partner_company_id');
    expect(keys('case-management', ['merchant_user'], NONE)).not.toContain('verdict');
    expect(keys('admin-review', ['cb911_agent'], NONE)).not.toContain('verdict');
    const verdictsOnly = { features: new Set([MERCHANT_FEATURE.verdicts]), partnerCompanyId: false };
    expect(keys('case-management', ['merchant_user'], verdictsOnly)).toContain('verdict');
    expect(keys('chargebacks', ['partner_admin'], verdictsOnly)).not.toContain('processor');
  });

  it('keeps the Merchant column out of the chargebacks view of merchant roles', () => {
    expect(keys('chargebacks', ['merchant_admin'], ALL)).not.toContain('merchant_name');
    expect(keys('chargebacks', ['partner_user'], ALL)).toContain('merchant_name');
  });
});
