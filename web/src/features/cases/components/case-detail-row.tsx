import type { CaseRow } from '@portal/contracts';
import { Box, Grid, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useCaseComments } from '../api/get-case-comments';
import { formatCaseDate, formatCaseMoney } from '../../../lib/format-case';
import { useProcessorSlots } from '../../../lib/processor-slot';

/** How many of the newest comments an expanded row shows. */
export const DETAIL_COMMENTS = 3;

/** A label and its value; `span` columns wide (-1: the whole row). */
function Field({ label, children, span }: { label: string; children: ReactNode; span?: number }) {
  return (
    <Box gridColumn={span === -1 ? '1 / -1' : span ? `span ${span}` : undefined} minW="0">
      <Text as="dt" fontSize="xs" color="fg.muted" fontWeight="semibold">
        {label}
      </Text>
      <Text as="dd" fontSize="sm" truncate title={typeof children === 'string' ? children : undefined}>
        {children || '—'}
      </Text>
    </Box>
  );
}

const money = (amount: number | null, currency: string | null) =>
  amount == null ? '' : `${formatCaseMoney(amount)} ${currency ?? ''}`.trim();

/**
 * The detail row of an expanded case (spec 2 §2.1): what the columns do not
 * show (reason code message, order, card, amounts, dates, assigned user, flag
 * comment) and its newest comments.
 */
export function CaseDetailRow({ row }: { row: CaseRow }) {
  const comments = useCaseComments(row.id, DETAIL_COMMENTS);
  const { SubmissionPanel } = useProcessorSlots();
  const number =
    row.cc_no ?? (row.cc_last_four ? `**** ${row.cc_last_four}` : row.cc_bin && `BIN ${row.cc_bin}`);
  const card = [row.cc_type, number].filter(Boolean).join(' · ');
  const u = row.assigned_user;
  return (
    <Grid
      // On a phone the comments go under the fields; what does not fit the row scrolls inside it.
      templateColumns={{ base: 'minmax(0, 1fr)', md: 'minmax(0, 3fr) minmax(0, 2fr)' }}
      templateRows={{ base: 'auto minmax(0, 1fr)', md: 'minmax(0, 1fr)' }}
      gap={{ base: 3, md: 4 }}
      px={{ base: 3, md: 4 }}
      py="3"
      h="full"
      overflowY="auto"
      bg="bg.muted"
      borderBottomWidth="1px"
      data-testid={`case-detail-${row.id}`}
      role="region"
      aria-label={`Details of case ${row.id}`}
    >
      <Stack gap="2" minW="0">
        {/* A case from a processor connection (issue 32), first: draws nothing for other cases. */}
        {SubmissionPanel && <SubmissionPanel caseId={row.id} />}
        <Grid
          as="dl"
          templateColumns={{ base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' }}
          columnGap="4"
          rowGap="2"
          alignContent="start"
        >
          <Field label="Reason Code Message" span={-1}>
            {`${row.reason_code} - ${row.reason_code_message}`}
          </Field>
          <Field label="Order ID">{row.order_id ?? ''}</Field>
          <Field label="Card">{card}</Field>
          <Field label="ARN">{row.arn ?? ''}</Field>
          <Field label="Dispute Amount">{money(row.dispute_amt, row.dispute_currency)}</Field>
          <Field label="Transaction Amount">{money(row.trans_amt, row.trans_currency)}</Field>
          <Field label="Assigned">{u ? `${u.fname} ${u.lname} (${u.username})` : 'Unassigned'}</Field>
          <Field label="Post Date">{formatCaseDate(row.date_post)}</Field>
          <Field label="Due Date">{formatCaseDate(row.date_due)}</Field>
          <Field label="Transaction Date">{formatCaseDate(row.date_trans)}</Field>
          <Field label="Completed Date">{formatCaseDate(row.date_completed)}</Field>
          <Field label="Flag Comment" span={2}>
            {row.flag?.is_flagged ? row.flag.comment || '(flagged, no comment)' : 'Not flagged'}
          </Field>
        </Grid>
      </Stack>
      <Stack gap="1" minH="0" overflowY="auto" data-testid={`case-detail-comments-${row.id}`}>
        <Text fontSize="xs" color="fg.muted" fontWeight="semibold">
          Latest Comments
          {comments.data && comments.data.pagination.total > DETAIL_COMMENTS
            ? ` (${DETAIL_COMMENTS} of ${comments.data.pagination.total})`
            : ''}
        </Text>
        {comments.isPending ? (
          <Text fontSize="sm" color="fg.muted">
            Loading...
          </Text>
        ) : comments.isError ? (
          <Text fontSize="sm" color="red.600">
            The comments could not be loaded.
          </Text>
        ) : comments.data.data.length === 0 ? (
          <Text fontSize="sm" color="fg.muted">
            {row.comments ? row.comments : 'No comments yet.'}
          </Text>
        ) : (
          comments.data.data.map((c) => (
            <Box key={c.id} fontSize="sm" data-testid="case-detail-comment">
              <Text fontSize="xs" color="fg.muted">
                {c.user} · {formatCaseDate(c.created_at)} {c.created_at.slice(11, 16)} UTC
              </Text>
              <Text whiteSpace="pre-wrap" lineClamp={3}>
                {c.text}
              </Text>
            </Box>
          ))
        )}
      </Stack>
    </Grid>
  );
}
