import type { CaseRow } from '@portal/contracts';
import { Button, HStack } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { CaseList } from '../../features/cases/components/case-list';

function OpenCase({ row }: { row: CaseRow }) {
  return (
    <HStack h="full">
      <Button asChild size="2xs" variant="outline" aria-label={`Review case ${row.id}`}>
        <RouterLink to={`/case-qc-review/view-case/${row.id}`}>Review</RouterLink>
      </Button>
    </HStack>
  );
}

/** /case-qc-review and -new: the QC queue (status 3 DocUploaded, spec 2 §2.4); a row opens the case. */
export default function QcReviewListRoute() {
  return (
    <CaseList
      view="qc-review"
      baseQuery={{ status_id: '3' }}
      extraRowAction={(row) => <OpenCase row={row} />}
      toolbarExtra={
        <Button asChild size="sm" colorPalette="brand" data-testid="qc-start">
          <RouterLink to="/case-qc-review/view-case">Start QC Review</RouterLink>
        </Button>
      }
    />
  );
}
