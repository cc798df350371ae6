import { Button, HStack } from '@chakra-ui/react';
import type { CaseRow } from '@portal/contracts';
import { useState } from 'react';
import { toaster } from '../../../components/toaster';
import { GENERIC_ERROR } from '../../../lib/errors';
import { getIssuerDoc } from '../api/get-issuer-doc';

/** Issuer Docs cell: one link per issuer document; a click asks for its short-lived link and downloads it. */
export function IssuerDocsCell({ row }: { row: CaseRow }) {
  const [busy, setBusy] = useState<number | null>(null);
  if (!row.issuer_docs?.length) return null;
  async function open(docId: number) {
    setBusy(docId);
    try {
      const { uri, filename } = await getIssuerDoc(row.id, docId);
      const a = document.createElement('a');
      a.href = uri;
      a.download = filename;
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch {
      // Spec 2 §8 'Issuer doc failure'.
      toaster.create({ type: 'error', title: GENERIC_ERROR });
    } finally {
      setBusy(null);
    }
  }
  return (
    <HStack gap="1" data-testid="issuer-docs-cell">
      {row.issuer_docs.map((d, i) => (
        <Button
          key={d.id}
          size="2xs"
          variant="plain"
          colorPalette="blue"
          textDecoration="underline"
          px="0"
          title={`Issuer document of ${d.date_created.slice(0, 10)}`}
          loading={busy === d.id}
          onClick={(e) => {
            e.stopPropagation();
            void open(d.id);
          }}
        >
          {row.issuer_docs.length > 1 ? `Doc ${i + 1}` : 'View'}
        </Button>
      ))}
    </HStack>
  );
}
