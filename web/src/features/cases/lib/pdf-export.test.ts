import type { CaseRow } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import type { CaseColumn } from './case-columns';
import { MESSAGE_LABEL, pageFormat, pdfReasonMessage, pdfTable, tableWidth } from './pdf-export';

const ELEVEN = 'one two three four five six seven eight nine ten eleven';

const row = (over: Partial<CaseRow>): CaseRow =>
  ({
    id: 7,
    reason_code: '10.4',
    reason_code_message: 'Other Fraud - Card-Absent Environment',
    dispute_amt: 1234.5,
    date_due: '2026-11-03T00:00:00.000Z',
    ...over,
  }) as CaseRow;

const COLS: CaseColumn[] = [
  { key: 'id', label: 'CB ID', kind: 'text', width: 115 },
  { key: 'reason_code', label: 'Reason Code', kind: 'text', width: 110 },
  { key: 'dispute_amt', label: 'Dispute Amt', kind: 'money', width: 120 },
  { key: 'date_due', label: 'Due Date', kind: 'date', width: 115 },
];

describe('PDF export (spec 2 §2.1: reason code message cut to 10 words)', () => {
  it('keeps messages of up to 10 words whole', () => {
    expect(pdfReasonMessage(row({}))).toBe('Other Fraud - Card-Absent Environment');
    const ten = ELEVEN.split(' ').slice(0, 10).join(' ');
    expect(pdfReasonMessage(row({ reason_code_message: ten }))).toBe(ten);
    expect(pdfReasonMessage(row({ reason_code_message: '' }))).toBe('');
  });

  it('cuts longer messages after the 10th word and adds an ellipsis', () => {
    expect(pdfReasonMessage(row({ reason_code_message: ELEVEN }))).toBe(
      'one two three four five six seven eight nine ten...',
    );
    expect(pdfReasonMessage(row({ reason_code_message: `  ${ELEVEN.replace(/ /g, ' \n ')}  ` }))).toBe(
      'one two three four five six seven eight nine ten...',
    );
  });

  it('puts the message right after Reason Code, with the texts the grid shows', () => {
    const t = pdfTable([row({ reason_code_message: ELEVEN })], COLS);
    expect(t.head).toEqual(['CB ID', 'Reason Code', MESSAGE_LABEL, 'Dispute Amt', 'Due Date']);
    expect(t.body).toEqual([
      ['7', '10.4', 'one two three four five six seven eight nine ten...', '1,234.50', '11/03/2026'],
    ]);
    expect(t.align).toEqual(['left', 'left', 'left', 'right', 'left']);
    expect(t.messageColumn).toBe(2);
  });

  it('leaves the message out when Reason Code is not among the columns', () => {
    const t = pdfTable(
      [row({})],
      COLS.filter((c) => c.key !== 'reason_code'),
    );
    expect(t.head).not.toContain(MESSAGE_LABEL);
    expect(t.messageColumn).toBeNull();
  });
});

describe('PDF page format', () => {
  // A stand-in for jsPDF's measuring: 3 pt per character.
  const measure = {
    setFont: () => undefined,
    setFontSize: () => undefined,
    getTextWidth: (t: string) => t.length * 3,
  };

  it('sizes columns by their longest value, headers by their longest word, the message fixed', () => {
    const t = pdfTable([row({ reason_code_message: ELEVEN })], COLS);
    // CB ID: 'CB'/'ID' vs '7' -> 6; Reason Code: 'Reason' 18; message 96; 'Amt'.. '1,234.50' 24; '11/03/2026' 30.
    expect(tableWidth(measure, t)).toBe(6 + 5 + (18 + 5) + 96 + (24 + 5) + (30 + 5));
  });

  it('takes the smallest landscape format the table fits', () => {
    expect(pageFormat(700)).toBe('letter');
    expect(pageFormat(900)).toBe('legal');
    expect(pageFormat(1100)).toBe('tabloid');
    expect(pageFormat(5000)).toBe('tabloid');
  });
});
