import { Field, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { ALERT_CASE_OUTCOME, ALERT_REFUND_OUTCOMES, type AlertRow } from '@portal/contracts';
import { useMemo, useState } from 'react';
import { TextField } from '../../../components/text-field';
import { useAlertOutcomes } from '../api/get-alert-outcomes';
import { initialForm, validateOutcome, type OutcomeForm } from '../lib/outcome-form';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';

/** Mark Outcome: validates on change; Complete is disabled while submitting, unchanged or invalid. */
export function MarkOutcomeDialog({
  alert,
  busy,
  onSubmit,
  onClose,
}: {
  alert: AlertRow;
  busy: boolean;
  onSubmit: (form: OutcomeForm) => void;
  onClose: () => void;
}) {
  const outcomes = useAlertOutcomes();
  const initial = useMemo(() => initialForm(alert), [alert]);
  const [form, setForm] = useState<OutcomeForm>(initial);
  const [touched, setTouched] = useState(false);
  const errors = validateOutcome(form);
  const valid = Object.keys(errors).length === 0;
  const changed = (Object.keys(form) as (keyof OutcomeForm)[]).some((k) => form[k] !== initial[k]);
  const outcome = Number(form.outcome_id);
  const set = (k: keyof OutcomeForm) => (v: string) => {
    setTouched(true);
    setForm((f) => ({ ...f, [k]: v }));
  };
  const show = (k: keyof OutcomeForm) => (touched ? errors[k] : undefined);
  return (
    <DialogFrame
      title="Mark Outcome"
      testId="mark-outcome-dialog"
      onClose={onClose}
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{
            label: 'Complete',
            onClick: () => onSubmit(form),
            disabled: busy || !changed || !valid,
            loading: busy,
            testId: 'mark-outcome-submit',
          }}
        />
      }
    >
      <Stack gap="3">
        <Text fontSize="sm" color="fg.muted">{`Alert ID ${alert.alert_id} · ${alert.descriptor}`}</Text>
        <Text fontSize="xs" color="fg.muted" data-testid="mark-outcome-hint">
          Complete saves the outcome; it can still be changed until the alert's Confirm Completion.
        </Text>
        <Field.Root invalid={!!show('outcome_id')} required>
          <Field.Label>Outcome</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              aria-label="Outcome"
              data-testid="outcome-select"
              value={form.outcome_id}
              onChange={(e) => set('outcome_id')(e.target.value)}
            >
              <option value="">Select an outcome</option>
              {(outcomes.data?.data ?? []).map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {show('outcome_id') && <Field.ErrorText>{show('outcome_id')}</Field.ErrorText>}
        </Field.Root>
        {ALERT_REFUND_OUTCOMES.includes(outcome) && (
          <>
            <TextField
              label="Refund ID"
              name="refund_id"
              value={form.refund_id}
              onChange={set('refund_id')}
              error={show('refund_id')}
            />
            <TextField
              label="Order ID"
              name="order_id"
              value={form.order_id}
              onChange={set('order_id')}
              error={show('order_id')}
            />
            <TextField
              label="Customer Name"
              name="customer_name"
              value={form.customer_name}
              onChange={set('customer_name')}
              error={show('customer_name')}
            />
          </>
        )}
        {outcome === ALERT_CASE_OUTCOME && (
          <TextField
            label="Case ID"
            name="case_id"
            value={form.case_id}
            onChange={set('case_id')}
            error={show('case_id')}
          />
        )}
      </Stack>
    </DialogFrame>
  );
}
