import { Link, Text } from '@chakra-ui/react';
import { useRepresentment } from '../api/get-representment';

const DOC_ERROR = 'An error occurred retrieving document for this case.';

/** The uploaded representment: link and case comments, or the spec's error text. */
export function RepresentmentPanel({ caseId }: { caseId: number }) {
  const doc = useRepresentment(caseId);
  if (doc.isPending) return <Text color="fg.muted">Loading representment document…</Text>;
  if (doc.isError || !doc.data.link)
    return (
      <Text color="fg.muted" data-testid="representment-error">
        {DOC_ERROR}
      </Text>
    );
  return (
    <Text data-testid="representment">
      <Link href={doc.data.link} target="_blank" rel="noreferrer" colorPalette="brand">
        Representment document
      </Link>
      {doc.data.case_comments ? ` — ${doc.data.case_comments}` : ''}
    </Text>
  );
}
