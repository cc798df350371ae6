import type { CaseEditBody, CaseRow } from '@portal/contracts';
import { Field, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { lookupLabel, useLookup, type LookupItem } from '../../../lib/get-lookup';
import { CaseDialog } from '../../../components/dialogs/case-dialog';

/** Status groups in which the full edit also asks reason code and currency (spec 2 §4, §5). */
const WIDE_GROUPS = new Set([1, 5]);

function Select({
  label,
  value,
  onChange,
  items,
  required,
  testId,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  items: LookupItem[];
  required?: boolean;
  testId: string;
}) {
  return (
    <Field.Root required={required} invalid={required && !value}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field
          aria-label={label}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
        >
          <option value="">Select</option>
          {items.map((i) => (
            <option key={i.id} value={i.id}>
              {lookupLabel(i)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/**
 * Edit Chargeback: verdict-only (and bulk) or the full edit with the spec's
 * rules; Save is disabled until the form is changed and valid.
 */
export function EditChargebackDialog({
  cases,
  verdictOnly,
  onSubmit,
  onClose,
  busy,
}: {
  cases: CaseRow[];
  verdictOnly: boolean;
  onSubmit: (body: CaseEditBody) => void;
  onClose: () => void;
  busy: boolean;
}) {
  const bulk = cases.length > 1;
  const row = cases[0]!;
  const full = !bulk && !verdictOnly;
  const wide = full && WIDE_GROUPS.has(row.status_group_id);
  const initial = {
    verdict_id: bulk ? '' : String(row.verdict_id),
    processor_invoice_id: row.processor_invoice_id ?? '',
    case_amt: row.dispute_amt != null ? String(row.dispute_amt) : '',
    reason_code_id: String(row.reason_code_id),
    currency_id: String(row.dispute_currency_id),
  };
  const [form, setForm] = useState(initial);
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  const verdicts = useLookup('cm/gen/verdicts');
  const reasons = useLookup(wide ? 'cm/gen/rc' : undefined);
  const currencies = useLookup(wide ? 'cm/gen/currencies' : undefined);

  const needsInvoice = full && !!row.processor_invoice_id;
  const needsAmount = full && row.dispute_amt != null;
  const valid =
    Number(form.verdict_id) >= 1 &&
    (!needsInvoice || form.processor_invoice_id.trim() !== '') &&
    (!needsAmount ||
      (form.case_amt.trim() !== '' && Number(form.case_amt) >= 0 && !Number.isNaN(Number(form.case_amt)))) &&
    (!wide || (Number(form.reason_code_id) >= 1 && Number(form.currency_id) >= 1));
  const changed = JSON.stringify(form) !== JSON.stringify(initial);

  const submit = () => {
    const body: CaseEditBody = { verdict_id: Number(form.verdict_id) };
    if (full) {
      if (needsInvoice || form.processor_invoice_id)
        body.processor_invoice_id = form.processor_invoice_id.trim();
      if (needsAmount) body.case_amt = Math.round(Number(form.case_amt) * 100) / 100;
      if (wide) {
        body.reason_code_id = Number(form.reason_code_id);
        body.currency_id = Number(form.currency_id);
      }
    }
    onSubmit(body);
  };

  return (
    <CaseDialog
      title="Edit Chargeback"
      onClose={onClose}
      testId="edit-dialog"
      primary={{ label: 'Save', onClick: submit, disabled: !valid || !changed, loading: busy }}
    >
      <Stack gap="3">
        <Text>{bulk ? `${cases.length} cases selected.` : `Case ${row.case_no} (CB ID ${row.id})`}</Text>
        <Select
          label="Verdict"
          value={form.verdict_id}
          onChange={set('verdict_id')}
          items={verdicts.data?.data ?? []}
          required
          testId="edit-verdict"
        />
        {full && (
          <>
            <Field.Root required={needsInvoice} invalid={needsInvoice && !form.processor_invoice_id.trim()}>
              <Field.Label>Processor Invoice ID</Field.Label>
              <Input
                value={form.processor_invoice_id}
                onChange={(e) => set('processor_invoice_id')(e.target.value)}
              />
            </Field.Root>
            {needsAmount && (
              <Field.Root
                required
                invalid={form.case_amt.trim() === '' || Number.isNaN(Number(form.case_amt))}
              >
                <Field.Label>Case Amount</Field.Label>
                <Input
                  inputMode="decimal"
                  value={form.case_amt}
                  onChange={(e) => set('case_amt')(e.target.value)}
                />
              </Field.Root>
            )}
          </>
        )}
        {wide && (
          <>
            <Select
              label="Reason Code"
              value={form.reason_code_id}
              onChange={set('reason_code_id')}
              items={(reasons.data?.data ?? []).filter(
                (r) => !r.card_type || r.card_type.name === row.cc_type,
              )}
              required
              testId="edit-reason"
            />
            <Select
              label="Currency"
              value={form.currency_id}
              onChange={set('currency_id')}
              items={currencies.data?.data ?? []}
              required
              testId="edit-currency"
            />
          </>
        )}
      </Stack>
    </CaseDialog>
  );
}
