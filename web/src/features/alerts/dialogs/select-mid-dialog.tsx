import { Field, NativeSelect, Stack, Text } from '@chakra-ui/react';
import type { AlertRow } from '@portal/contracts';
import { useState } from 'react';
import { useAlertMids } from '../api/get-alert-mids';
import { ALERT_MESSAGES } from '../lib/alert-messages';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';

/** Select MID: maps the alert's descriptor to one of the merchant's MIDs (every alert of the descriptor follows). */
export function SelectMidDialog({
  alert,
  busy,
  onApply,
  onClose,
}: {
  alert: AlertRow;
  busy: boolean;
  onApply: (mid: { id: number; mid: string }) => void;
  onClose: () => void;
}) {
  const mids = useAlertMids(alert.merchant_id);
  const [midId, setMidId] = useState('');
  const [touched, setTouched] = useState(false);
  const chosen = (mids.data?.data ?? []).find((m) => String(m.id) === midId);
  return (
    <DialogFrame
      title={ALERT_MESSAGES.selectMid}
      testId="select-mid-dialog"
      onClose={onClose}
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{
            label: 'Apply',
            onClick: () => chosen && onApply({ id: chosen.id, mid: chosen.mid }),
            disabled: !chosen || busy,
            loading: busy,
            testId: 'select-mid-apply',
          }}
        />
      }
    >
      <Stack gap="3">
        <Text fontSize="sm">{`Descriptor: ${alert.descriptor}`}</Text>
        <Field.Root invalid={touched && !chosen} required>
          <Field.Label>MID</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              aria-label="MID"
              data-testid="mid-select"
              value={midId}
              onChange={(e) => {
                setTouched(true);
                setMidId(e.target.value);
              }}
            >
              <option value="">Select a MID</option>
              {(mids.data?.data ?? []).map((m) => (
                <option key={m.id} value={m.id}>
                  {m.alias ? `${m.mid} (${m.alias})` : m.mid}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {touched && !chosen && <Field.ErrorText>{ALERT_MESSAGES.chooseMid}</Field.ErrorText>}
        </Field.Root>
      </Stack>
    </DialogFrame>
  );
}
