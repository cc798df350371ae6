import {
  BUILDER_MESSAGES as M,
  SALE_TYPES,
  type BuilderCase,
  type DocType,
  type RelatedCase,
} from '@portal/contracts';
import { Alert, Box, Button, Checkbox, DataList, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { formatMoney } from '../../../lib/format';
import type { Values } from '../lib/builder-form';
import { kb, stagedFormat, stagedName, type StagedDoc } from '../lib/staged';

/**
 * Step 4 'Case Summary' (spec 2 §2.7): customer, product (its name before the
 * first colon), sales method, the customer service notes with an Edit link,
 * the documents attached in step 3 (in the order they are compiled, after the
 * case summary; issue 29), and the other open cases with the same card number
 * to use this case as a template for.
 */
export function StepSummary({
  page1,
  values,
  productName,
  related,
  documents,
  docTypes,
  chosen,
  onChosen,
  onEditNotes,
}: {
  page1: BuilderCase;
  values: Values;
  productName: string;
  related: readonly RelatedCase[];
  documents: readonly StagedDoc[];
  docTypes: readonly DocType[];
  chosen: number[];
  onChosen: (ids: number[]) => void;
  onEditNotes: () => void;
}) {
  const sale = SALE_TYPES.find((s) => s.id === page1.sale_type)?.name ?? '';
  const toggle = (id: number, on: boolean) => onChosen(on ? [...chosen, id] : chosen.filter((x) => x !== id));
  return (
    <Stack gap="4" data-testid="builder-summary">
      <Heading size="md">{M.summaryTitle}</Heading>
      <DataList.Root orientation="horizontal">
        <DataList.Item>
          <DataList.ItemLabel>Customer</DataList.ItemLabel>
          <DataList.ItemValue data-testid="summary-customer">
            {`${values[11] ?? ''} ${values[12] ?? ''}`.trim()}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Product</DataList.ItemLabel>
          <DataList.ItemValue data-testid="summary-product">{productName.split(':')[0]}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Sales Method</DataList.ItemLabel>
          <DataList.ItemValue data-testid="summary-sale-type">{sale}</DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
      <Box>
        <Text fontWeight="semibold">
          Customer Service Notes{' '}
          <Button variant="plain" size="xs" colorPalette="blue" onClick={onEditNotes}>
            Edit
          </Button>
        </Text>
        <Text whiteSpace="pre-wrap">{values[9] ?? ''}</Text>
      </Box>
      <Box>
        <Text fontWeight="semibold" mb="1">
          Documents
        </Text>
        {documents.length ? (
          <Table.Root size="sm" data-testid="summary-documents">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>#</Table.ColumnHeader>
                <Table.ColumnHeader>Document</Table.ColumnHeader>
                <Table.ColumnHeader>Type</Table.ColumnHeader>
                <Table.ColumnHeader>Format</Table.ColumnHeader>
                <Table.ColumnHeader>Size</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {documents.map((d, i) => (
                <Table.Row key={d.key}>
                  <Table.Cell>{i + 1}</Table.Cell>
                  <Table.Cell>{stagedName(d)}</Table.Cell>
                  <Table.Cell>{docTypes.find((t) => t.id === d.docTypeId)?.name ?? d.docTypeId}</Table.Cell>
                  <Table.Cell>{stagedFormat(d)}</Table.Cell>
                  <Table.Cell>{kb(d.size)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        ) : (
          <Text color="fg.muted" data-testid="summary-documents">
            No documents attached.
          </Text>
        )}
      </Box>
      {related.length > 0 && (
        <Stack gap="2">
          <Alert.Root status="info">
            <Alert.Indicator />
            <Alert.Title>{M.templateAlert}</Alert.Title>
          </Alert.Root>
          <Text fontWeight="semibold">{M.templateHeading}</Text>
          <Table.Root size="sm" data-testid="builder-related">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader />
                <Table.ColumnHeader>CB ID</Table.ColumnHeader>
                <Table.ColumnHeader>Case Number</Table.ColumnHeader>
                <Table.ColumnHeader>Reason Code</Table.ColumnHeader>
                <Table.ColumnHeader>Dispute Amt</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {related.map((r) => (
                <Table.Row key={r.id}>
                  <Table.Cell>
                    <Checkbox.Root
                      size="sm"
                      checked={chosen.includes(r.id)}
                      onCheckedChange={(e) => toggle(r.id, !!e.checked)}
                      aria-label={`Use as template for case ${r.id}`}
                    >
                      <Checkbox.HiddenInput />
                      <Checkbox.Control />
                    </Checkbox.Root>
                  </Table.Cell>
                  <Table.Cell>{r.id}</Table.Cell>
                  <Table.Cell>{r.case_no}</Table.Cell>
                  <Table.Cell>{r.reason_code}</Table.Cell>
                  <Table.Cell>{formatMoney(r.dispute_amt, r.dispute_currency)}</Table.Cell>
                  <Table.Cell>{r.status}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Stack>
      )}
    </Stack>
  );
}
