import { describe, expect, it } from 'vitest';
import { REPORT_CHARTS } from '@portal/contracts';
import { reportSections } from './report-layout';

describe('report sections', () => {
  it('fills rows of three, keeps explicit rows and skips unknown charts', () => {
    expect(reportSections(['card-type', 'verdict', 'nope', 'cb-by-reason-code', 'location-type'])).toEqual([
      ['card-type', 'verdict', 'cb-by-reason-code'],
      ['location-type'],
    ]);
    expect(reportSections(['card-type', 'verdict, cases-by-platform', 'cb-by-trans-month'])).toEqual([
      ['card-type'],
      ['verdict', 'cases-by-platform'],
      ['cb-by-trans-month'],
    ]);
  });
  it('shows every chart without a configuration', () => {
    expect(reportSections([]).flat()).toEqual(Object.keys(REPORT_CHARTS));
  });
});
