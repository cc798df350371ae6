import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { formatCaseDate } from '../../../lib/format-case';
import { useErts } from '../api/get-erts';

/** The case's ERT records, newest first. */
export function ErtList({ caseId }: { caseId: number }) {
  const erts = useErts(caseId);
  const rows = erts.data?.data ?? [];
  return (
    <Box data-testid="ert-list">
      <Heading size="sm" mb="2">
        ERT Records
      </Heading>
      {!rows.length && <Text color="fg.muted">No Records Found!</Text>}
      <Stack gap="2">
        {rows.map((e) => (
          <Box key={e.id} borderWidth="1px" borderRadius="md" p="2">
            <Text fontSize="sm" color="fg.muted">
              {formatCaseDate(e.date_created)} · {e.created_by ?? 'system'}
            </Text>
            <Text whiteSpace="pre-wrap">{e.content}</Text>
          </Box>
        ))}
      </Stack>
    </Box>
  );
}
