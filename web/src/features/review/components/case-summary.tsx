import type { CaseDetail } from '@portal/contracts';
import { Box, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Flag } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatCaseDate, formatCaseMoney } from '../../../lib/format-case';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap="0">
      <Text fontSize="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
        {label}
      </Text>
      <Text fontWeight="medium">{children}</Text>
    </Stack>
  );
}

/** The case facts a reviewer checks: ids, merchant, reason, money, due date, assignee and flag. */
export function CaseSummary({ c, children }: { c: CaseDetail; children?: ReactNode }) {
  const assigned = c.assigned_user;
  return (
    <Box borderWidth="1px" borderRadius="md" p="4" bg="bg.panel" data-testid="case-summary">
      <Heading size="md" mb="3">
        Case No: {c.case_no} (CB ID {c.id})
      </Heading>
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="4">
        <Item label="Merchant">{c.merchant_name}</Item>
        <Item label="MID">{c.mid}</Item>
        <Item label="Status">{c.status_group}</Item>
        <Item label="Due Date">{formatCaseDate(c.date_due)}</Item>
        <Item label="Reason Code">
          {c.cc_type || 'N/A'} - {c.reason_code}
        </Item>
        <Item label="Reason Category">{c.reason_category || '—'}</Item>
        <Item label="Dispute Amt">
          {formatCaseMoney(c.dispute_amt)} {c.dispute_currency}
        </Item>
        <Item label="Post Date">{formatCaseDate(c.date_post)}</Item>
        <Item label="Order ID">{c.order_id ?? '—'}</Item>
        <Item label="Card Number">{c.cc_last_four ? `**** ${c.cc_last_four}` : '—'}</Item>
        <Item label="Verdict">{c.verdict}</Item>
        <Item label="Assigned User">
          {assigned ? `${assigned.fname} ${assigned.lname} (${assigned.username})` : 'Unassigned'}
        </Item>
      </SimpleGrid>
      {c.flag?.is_flagged && (
        <Text mt="3" color="red.600" data-testid="flag-comment">
          <Icon size="sm" mr="1">
            <Flag fill="currentColor" />
          </Icon>
          Flag comment: {c.flag.comment || '(none)'}
        </Text>
      )}
      {c.comments && (
        <Text mt="2" color="fg.muted">
          Comments: {c.comments}
        </Text>
      )}
      {children}
    </Box>
  );
}
