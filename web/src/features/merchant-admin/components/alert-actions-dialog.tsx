import { Checkbox, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { queryErrorMessage } from '../../../lib/errors';
import { useLookup, useMidAlertActions } from '../api/merchant-admin-api';

/**
 * Alert Actions for the MIDs selected in the Merchant Settings grid: the
 * chosen alert deflectors are requested for every selected MID (each starts
 * at Pending Activation; MIDs that inherit their merchant's deflectors are
 * left as they are and named).
 */
export function AlertActionsDialog({
  midIds,
  onDone,
  onClose,
}: {
  midIds: number[];
  onDone: (message: string) => void;
  onClose: () => void;
}) {
  const deflectors = useLookup('deflectors');
  const save = useMidAlertActions();
  const [picked, setPicked] = useState<number[]>([]);
  const submit = () =>
    save.mutate(
      { mid_ids: midIds, deflector_ids: picked },
      {
        onSuccess: (r) => {
          const notes = [
            r.message,
            r.unchanged.length ? `${r.unchanged.length} already enrolled.` : '',
            r.inheriting.length ? `${r.inheriting.length} inherit their merchant's deflectors.` : '',
          ];
          onDone(notes.filter(Boolean).join(' '));
        },
      },
    );
  return (
    <DialogFrame
      title="Alert Actions"
      testId="alert-actions-dialog"
      onClose={onClose}
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{
            label: 'Request Enrolment',
            onClick: submit,
            disabled: !picked.length,
            loading: save.isPending,
            testId: 'alert-actions-submit',
          }}
        />
      }
    >
      <Stack gap="3">
        <Text>
          {`Enrol ${midIds.length} selected MID${midIds.length === 1 ? '' : 's'} in these alert programs (each starts at Pending Activation):`}
        </Text>
        {(deflectors.data?.data ?? []).map((d) => (
          <Checkbox.Root
            key={d.id}
            checked={picked.includes(d.id)}
            onCheckedChange={(e) =>
              setPicked((old) => (e.checked === true ? [...old, d.id] : old.filter((x) => x !== d.id)))
            }
            data-testid="alert-action-deflector"
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{d.name}</Checkbox.Label>
          </Checkbox.Root>
        ))}
        {save.isError && <Notice status="error">{queryErrorMessage(save.error)}</Notice>}
      </Stack>
    </DialogFrame>
  );
}
