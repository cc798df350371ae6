import {
  Box,
  Button,
  Field,
  Flex,
  Heading,
  Input,
  NativeSelect,
  Spinner,
  Stack,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { TRANSACTION_TYPES, type NewProductBody } from '@portal/contracts';
import { useState, type FormEvent } from 'react';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { useProfile } from '../../../lib/auth/auth-context';
import { getSelectedMerchant } from '../../../lib/merchant-selection';
import { useAddProduct, useMerchantMids, useMidProducts, useProductCategories } from '../api/products-api';

/**
 * /products (the Account Setup modal's Products step, spec 3 §2; issue 19):
 * the products each MID of the merchant sells, the catalogue the case
 * builder describes a sale from (spec 2 §7 GET/POST /builder/products), and
 * a form to add one. The builder service checks the case-builder role and
 * refuses read-only users' additions; the message it gives is shown.
 */
export default function ProductsRoute() {
  const profile = useProfile();
  const merchantId = getSelectedMerchant()?.id ?? profile.merchant.id;
  const mids = useMerchantMids(merchantId);
  const [chosen, setChosen] = useState<number | null>(null);
  const midId = chosen ?? mids.data?.data[0]?.id ?? null;
  const products = useMidProducts(midId);

  return (
    <Page data-testid="products">
      <PageHeader
        title="Products"
        description="What each MID sells: case responses describe the purchase from this list."
      />
      {mids.isError && <Notice status="error" title={mids.error.message} />}
      {mids.data && !mids.data.data.length && (
        <Notice status="info" title="Your merchant has no MID yet: add one on the MIDs page first." />
      )}
      {!!mids.data?.data.length && (
        <Stack gap="6">
          <Field.Root maxW="md">
            <Field.Label>MID</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                value={midId ?? ''}
                onChange={(e) => setChosen(Number(e.currentTarget.value))}
                data-testid="products-mid"
              >
                {mids.data.data.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.alias ? `${m.mid} (${m.alias})` : m.mid}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          {products.isError && <Notice status="error" title={products.error.message} />}
          {products.isPending && midId !== null && <Spinner color="brand.solid" />}
          {products.data &&
            (products.data.data.length ? (
              <Table.Root size="sm" bg="white" data-testid="products-table">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>Name</Table.ColumnHeader>
                    <Table.ColumnHeader>Type</Table.ColumnHeader>
                    <Table.ColumnHeader>Category</Table.ColumnHeader>
                    <Table.ColumnHeader>Description</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {products.data.data.map((p) => (
                    <Table.Row key={p.id}>
                      <Table.Cell>{p.name}</Table.Cell>
                      <Table.Cell>{p.type.name}</Table.Cell>
                      <Table.Cell>{p.category?.name ?? ''}</Table.Cell>
                      <Table.Cell>{p.description ?? ''}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            ) : (
              <Text color="fg.muted">No products found.</Text>
            ))}
          {midId !== null && <AddProductForm key={midId} midId={midId} readOnly={profile.is_read_only} />}
        </Stack>
      )}
    </Page>
  );
}

function AddProductForm({ midId, readOnly }: { midId: number; readOnly: boolean }) {
  const categories = useProductCategories(midId);
  const add = useAddProduct();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState<NewProductBody['type']>(1);
  const [category, setCategory] = useState(0);
  const categoryId = category || categories.data?.data[0]?.id || 0;
  const valid = name.trim().length > 0 && categoryId > 0;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    add.mutate(
      {
        mid_id: midId,
        name: name.trim(),
        description: description.trim() || null,
        type,
        category: categoryId,
      },
      {
        onSuccess: () => {
          setName('');
          setDescription('');
        },
      },
    );
  };

  return (
    <Box as="form" onSubmit={submit} bg="white" borderWidth="1px" borderRadius="md" p="4" maxW="2xl">
      <Heading size="md" mb="3">
        Add Product
      </Heading>
      <Stack gap="3">
        <Field.Root required>
          <Field.Label>Name</Field.Label>
          <Input value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={200} name="name" />
        </Field.Root>
        <Flex gap="3" wrap="wrap">
          <Field.Root flex="1" minW="40">
            <Field.Label>Type</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                value={type}
                onChange={(e) => setType(Number(e.currentTarget.value) as NewProductBody['type'])}
                name="type"
              >
                {TRANSACTION_TYPES.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root flex="1" minW="40">
            <Field.Label>Category</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                value={categoryId}
                onChange={(e) => setCategory(Number(e.currentTarget.value))}
                name="category"
              >
                {(categories.data?.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </Flex>
        <Field.Root>
          <Field.Label>Description</Field.Label>
          <Textarea
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            maxLength={2000}
            name="description"
          />
        </Field.Root>
        {add.isError && <Notice status="error" title={add.error.message} />}
        {add.isSuccess && <Notice status="success" title={`Product ${add.data.name} added.`} />}
        <Box>
          <Button
            type="submit"
            colorPalette="brand"
            disabled={!valid || readOnly || add.isPending}
            loading={add.isPending}
            data-testid="products-add"
          >
            Add Product
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
