import { Button } from '@chakra-ui/react';
import { PROCESSOR_SUBMISSION_MESSAGES as P } from '@portal/contracts';
import type { SaveDraftButtonProps } from '../../../lib/processor-slot';
import { useProcessorSubmission } from '../api/get-processor-submission';

/**
 * 'Save as draft at Stripe' beside a representment's submit button (issue
 * 32): the evidence is staged on the dispute (`submit: false`) and the case
 * stays Working. Drawn only for a case a Stripe connection owns.
 */
export function SaveDraftButton({ caseId, disabled, loading, onSaveDraft }: SaveDraftButtonProps) {
  const q = useProcessorSubmission(caseId);
  if (!q.data?.connected || q.data.processor !== 'stripe') return null;
  return (
    <Button
      variant="outline"
      onClick={onSaveDraft}
      disabled={disabled}
      loading={loading}
      data-testid="save-draft-at-stripe"
    >
      {P.saveDraft}
    </Button>
  );
}

export default SaveDraftButton;
