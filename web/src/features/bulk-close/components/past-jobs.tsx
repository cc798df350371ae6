import { Box, List, Text } from '@chakra-ui/react';
import { BULK_MESSAGES, type BulkJob } from '@portal/contracts';
import { formatAmountRange, formatJobDate } from '../lib/job-format';
import type { CriterionDef } from './bulk-job-panel';

/** Finished jobs listed under the panel, newest first: enough to see what ran lately without a report. */
const SHOWN = 5;

/** One line per finished job: when, who, its criteria and what it changed. */
export function PastJobs({ jobs, criteria }: { jobs: BulkJob[]; criteria: CriterionDef[] }) {
  const done = jobs.filter((j) => j.state === 'done').slice(0, SHOWN);
  if (done.length === 0) return null;
  return (
    <Box>
      <Text fontWeight="semibold" fontSize="sm" mb="1">
        Past jobs
      </Text>
      <List.Root gap="1" fontSize="sm" variant="plain" data-testid="bulk-past-jobs">
        {done.map((j) => (
          <List.Item key={j.id} display="block">
            <Text as="span" fontWeight="medium">
              {formatJobDate(j.date_run_end ?? j.date_created)}
            </Text>
            {` · ${j.username ?? 'unknown user'} · Amount ${formatAmountRange(j.amt_from, j.amt_to)}, `}
            {criteria.map((c) => `${c.label} ${String(j[c.jobLabel] ?? '')}`).join(', ')}
            <Text as="span" color="fg.muted">{` · ${BULK_MESSAGES.updated(j.records_num)}`}</Text>
          </List.Item>
        ))}
      </List.Root>
    </Box>
  );
}
