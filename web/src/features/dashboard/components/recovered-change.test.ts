import { describe, expect, it } from 'vitest';
import { recoveredChange } from './recovered-change';

describe('recovered tile comparison', () => {
  it('says up, down or flat with the rounded percent', () => {
    expect(recoveredChange(12.345)).toEqual({ tone: 'up', text: 'up 12.3% vs last month' });
    expect(recoveredChange(-40)).toEqual({ tone: 'down', text: 'down 40.0% vs last month' });
    expect(recoveredChange(0)).toEqual({ tone: 'flat', text: 'same as last month' });
    expect(recoveredChange(null)).toEqual({ tone: 'flat', text: 'no net recovered last month' });
  });
});
