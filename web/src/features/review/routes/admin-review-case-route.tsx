import { Box, Button, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { useProfile } from '../../../lib/auth/auth-context';
import { ApiError, UNKNOWN_ERROR } from '../../../lib/errors';
import { useCaseViewPatch } from '../../../lib/use-case-view-patch';
import { formatCaseDate } from '../../../lib/format-case';
import { useReviewCase } from '../api/get-review-case';
import { CaseSummary } from '../components/case-summary';
import { ReviewActionDialog } from '../components/review-action-dialog';
import { RepresentmentPanel } from '../components/representment-panel';
import { ReviewAssignControl, useReviewWrites } from '../components/review-controls';

/** /review/view-case/{caseId?}: one case of admin review, marked while open, with its review notes. */
export default function AdminReviewCaseRoute() {
  const { caseId } = useParams();
  const readOnly = useProfile().is_read_only;
  const id = caseId && /^\d+$/.test(caseId) ? Number(caseId) : null;
  const q = useReviewCase(id);
  const mark = useCaseViewPatch(id, 'review', { enabled: id != null && q.isSuccess && !readOnly });
  const writes = useReviewWrites(() => void q.refetch());
  const [open, setOpen] = useState(false);
  const back = (
    <Button asChild variant="outline" size="sm">
      <RouterLink to="/review" data-testid="back">
        Back
      </RouterLink>
    </Button>
  );
  /** Every state of the screen in the one page frame: title 'Review', Back on the right. */
  const page = (body: ReactNode, testId?: string) => (
    <Page data-testid={testId}>
      <PageHeader title="Review" actions={back} />
      {body}
    </Page>
  );
  if (id == null)
    return page(
      <Box maxW="2xl">
        <Notice status="info">Select a case from the review list.</Notice>
      </Box>,
    );
  if (q.isPending)
    return page(
      <HStack p="8" justify="center">
        <Spinner />
      </HStack>,
    );
  if (q.isError)
    return page(
      <Box maxW="2xl">
        <Notice status="error">{q.error instanceof ApiError ? q.error.message : UNKNOWN_ERROR}</Notice>
      </Box>,
    );
  const c = q.data;
  return page(
    <Stack gap="4">
      {mark.status === 'failed' && <Notice status="warning">{mark.message}</Notice>}
      <CaseSummary c={c}>
        <Stack mt="4" gap="2">
          <RepresentmentPanel caseId={c.id} />
        </Stack>
      </CaseSummary>
      <HStack gap="3" flexWrap="wrap">
        <Text fontWeight="medium">Assigned:</Text>
        <ReviewAssignControl row={c} readOnly={readOnly} done={() => void q.refetch()} />
        {!readOnly && (
          <Button colorPalette="brand" onClick={() => setOpen(true)} disabled={mark.status === 'failed'}>
            Review Action
          </Button>
        )}
      </HStack>
      <Box>
        <Heading size="sm" mb="2">
          Review Notes
        </Heading>
        {!c.reviews.length && <Text color="fg.muted">No Records Found!</Text>}
        <Stack gap="2" data-testid="review-notes">
          {c.reviews.map((r) => (
            <Box key={r.id} borderWidth="1px" borderRadius="md" p="2">
              <Text fontSize="sm" color="fg.muted">
                {formatCaseDate(r.date_created)} · {r.username ?? 'system'} · {r.action}
              </Text>
              {r.note && <Text>{r.note}</Text>}
            </Box>
          ))}
        </Stack>
      </Box>
      {open && (
        <ReviewActionDialog
          caseLabel={`Case ${c.case_no} (CB ID ${c.id})`}
          onSubmit={(actionId, note) => writes.act([c.id], actionId, note, () => setOpen(false))}
          onClose={() => setOpen(false)}
          busy={writes.busy}
        />
      )}
      {writes.dialog}
    </Stack>,
    'review-case',
  );
}
