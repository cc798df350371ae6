import { Button } from '@chakra-ui/react';
import { useState } from 'react';
import { useProfile } from '../../../lib/auth/auth-context';
import { BulkJobPanel, type CriterionDef } from './bulk-job-panel';

const CRITERIA: CriterionDef[] = [
  { key: 'currency_id', label: 'Currency', source: 'currency', jobLabel: 'currency' },
  { key: 'source_id', label: 'Source', source: 'source', jobLabel: 'source' },
  { key: 'card_type_id', label: 'Card Type', source: 'card_type', jobLabel: 'card_type' },
  { key: 'mid_descriptor_id', label: 'MID Descriptor', source: 'mid_descriptor', jobLabel: 'mid_descriptor' },
];

/** The alerts grid's 'Auto Refund Rules' dialog (spec 2 §2.11, §5); read-only users cannot open it. */
export function AutoRefundRulesButton({ merchantId }: { merchantId: number | undefined }) {
  const profile = useProfile();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        disabled={profile.is_read_only}
        onClick={() => setOpen(true)}
        data-testid="auto-refund-open"
      >
        Auto Refund Rules
      </Button>
      {open && (
        <BulkJobPanel
          kind="auto_refund"
          title="Auto Refund Rules"
          merchantId={merchantId}
          criteria={CRITERIA}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
