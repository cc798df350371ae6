import type { CaseRow } from '@portal/contracts';
import { Badge, Box, Text } from '@chakra-ui/react';

/** Flag cell: a red marker with the flag comment as its title. */
export function FlagCell({ row }: { row: CaseRow }) {
  if (!row.flag?.is_flagged) return null;
  return (
    <Box as="span" color="red.500" title={row.flag.comment ?? 'Flagged'} aria-label="Flagged" fontSize="lg">
      ⚑
    </Box>
  );
}

export function DocumentCell({ row }: { row: CaseRow }) {
  return row.properties.is_doc_available ? (
    <Badge colorPalette="blue" variant="subtle">
      Document
    </Badge>
  ) : null;
}

/** Assigned as an icon (staff and partners) with the name as its title. */
export function AssignedIconCell({ row }: { row: CaseRow }) {
  const u = row.assigned_user;
  if (!u) return <Text color="gray.400">—</Text>;
  return (
    <Badge
      variant="solid"
      colorPalette="brand"
      title={`${u.fname} ${u.lname} (${u.username})`}
      borderRadius="full"
    >
      {`${u.fname[0] ?? ''}${u.lname[0] ?? ''}`.toUpperCase()}
    </Badge>
  );
}
