import { Button } from '@chakra-ui/react';
import type { StackConfig } from '@portal/contracts';
import { useState } from 'react';
import { useProfile } from '../../../lib/auth/auth-context';
import { BulkJobPanel, type CriterionDef } from './bulk-job-panel';

const CRITERIA: CriterionDef[] = [
  { key: 'currency_id', label: 'Currency', source: 'currency', jobLabel: 'currency' },
  { key: 'cycle_id', label: 'Cycle', source: 'cycle', jobLabel: 'cycle' },
  { key: 'reason_code_id', label: 'Reason Code', source: 'reason_code', jobLabel: 'reason_code' },
];

/**
 * 'Bulk Close' for the case lists (spec 2 §2.9): shown only with the stack
 * flag show_cb_auto_accept_btn, disabled for read-only users.
 */
export function BulkCloseButton({
  stackConfig,
  merchantId,
}: {
  stackConfig: StackConfig | undefined;
  merchantId: number | undefined;
}) {
  const profile = useProfile();
  const [open, setOpen] = useState(false);
  if (!stackConfig?.show_cb_auto_accept_btn) return null;
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        disabled={profile.is_read_only}
        onClick={() => setOpen(true)}
        data-testid="bulk-close-open"
      >
        Bulk Close
      </Button>
      {open && (
        <BulkJobPanel
          kind="auto_accept"
          title="Bulk Close"
          merchantId={merchantId}
          criteria={CRITERIA}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
