import { Badge, Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import {
  PROCESSOR_SUBMISSION_MESSAGES as P,
  type ProcessorSubmissionAttempt,
  type ProcessorSubmissionView,
} from '@portal/contracts';
import { Notice } from '../../../components/notice';
import { useProfile } from '../../../lib/auth/auth-context';
import { formatCaseDate } from '../../../lib/format-case';
import { useProcessorSubmission } from '../api/get-processor-submission';
import { useSubmitDraft } from '../api/submit-draft';

const STATE: Record<ProcessorSubmissionView['state'], { label: string; palette: string }> = {
  none: { label: 'Nothing sent yet', palette: 'gray' },
  pending: { label: 'Sending… (retrying)', palette: 'orange' },
  draft: { label: 'Draft at Stripe (not submitted)', palette: 'blue' },
  submitted: { label: 'Submitted to Stripe', palette: 'green' },
  failed: { label: 'Not delivered', palette: 'red' },
};

const when = (iso: string) => `${formatCaseDate(iso)} ${iso.slice(11, 16)} UTC`;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <HStack align="baseline" gap="2" fontSize="sm" minW="0">
      <Text color="fg.muted" fontSize="xs" fontWeight="semibold" flexShrink={0} w="7rem">
        {label}
      </Text>
      <Box minW="0" wordBreak="break-word">
        {children}
      </Box>
    </HStack>
  );
}

function StripeError({ attempt }: { attempt: ProcessorSubmissionAttempt }) {
  const e = attempt.error;
  if (!e) return null;
  return (
    <Notice status={attempt.final ? 'error' : 'warning'} testId="stripe-submission-error">
      <Text>{e.message}</Text>
      {!attempt.final && <Text fontSize="sm">We will try again shortly.</Text>}
      {(e.code || e.status) && (
        <Text fontSize="xs" color="fg.muted" data-testid="stripe-submission-code">
          Stripe: {[e.status, e.code].filter(Boolean).join(' ')}
        </Text>
      )}
    </Notice>
  );
}

/**
 * The case's 'Stripe submission' panel (issue 32): the connection, the last
 * submission (when, draft or submitted, the evidence fields sent by name,
 * Stripe's file id) and what Stripe answered, in a merchant's words with
 * Stripe's code in small print. Drawn only for a case a connection owns; a
 * staged draft can be submitted from here.
 */
export function StripeSubmissionPanel({ caseId }: { caseId: number }) {
  const q = useProcessorSubmission(caseId);
  const submit = useSubmitDraft(caseId);
  const profile = useProfile();
  const s = q.data;
  if (!s?.connected) return null;
  const last = s.last;
  const state = STATE[s.state];
  return (
    <Box
      borderWidth="1px"
      borderRadius="md"
      px="3"
      py="2"
      bg="bg"
      role="region"
      aria-label="Stripe submission"
      data-testid="stripe-submission-panel"
      data-state={s.state}
    >
      <Stack gap="1" fontSize="sm">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <HStack gap="2">
            <Text fontWeight="semibold">Stripe submission</Text>
            <Badge colorPalette={state.palette} data-testid="stripe-submission-state">
              {state.label}
            </Badge>
          </HStack>
          {s.can_submit_draft && !profile.is_read_only && (
            <Button
              size="xs"
              colorPalette="brand"
              onClick={() => submit.mutate()}
              loading={submit.isPending}
              data-testid="stripe-submit-draft"
            >
              {P.submitDraft}
            </Button>
          )}
        </HStack>
        <Text fontSize="xs" color="fg.muted">
          Connection {s.connection_id?.slice(0, 8)} · dispute {s.dispute_id}
          {s.date_due ? ` · evidence due ${formatCaseDate(s.date_due)}` : ''}
        </Text>
        {last ? (
          <>
            <Row label="Last submission">
              {when(last.at)} · {last.mode === 'draft' ? 'saved as draft' : 'submitted'}
              {last.version !== null ? ` · v${last.version}` : ''}
              {last.file_id ? ` · file ${last.file_id}` : ''}
            </Row>
            <Row label="Fields sent">
              <Text as="span" data-testid="stripe-submission-fields">
                {last.fields.length ? last.fields.join(', ') : 'none (nothing was sent)'}
              </Text>
            </Row>
            <StripeError attempt={last} />
          </>
        ) : (
          <Text color="fg.muted">No evidence sent to Stripe yet.</Text>
        )}
        {submit.isSuccess && <Notice status="success">{submit.data.message}</Notice>}
        {submit.isError && <Notice status="error">{(submit.error as Error).message}</Notice>}
      </Stack>
    </Box>
  );
}

export default StripeSubmissionPanel;
