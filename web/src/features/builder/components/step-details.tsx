import { BUILDER_MESSAGES as M, SALE_TYPES } from '@portal/contracts';
import {
  Field,
  HStack,
  Input,
  NativeSelect,
  RadioGroup,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { useCategories, useProducts } from '../api/builder-lookups';
import type { FieldErrors } from '../lib/builder-form';

/** Step 1's own answers besides the field groups (spec 2 §3 'Case draft'). */
export interface DetailsDraft {
  sale_type: string;
  product_id: string;
  new_product_name: string;
  new_product_description: string;
  category_id: string;
  is_shippable: boolean;
  is_service: boolean;
  is_subscription: boolean;
}

function YesNo({
  label,
  name,
  value,
  onChange,
  errors,
}: {
  label: string;
  name: string;
  value: boolean;
  onChange: (v: boolean) => void;
  errors?: string[];
}) {
  return (
    <Field.Root invalid={!!errors?.length}>
      <Field.Label>{label}</Field.Label>
      <RadioGroup.Root
        name={name}
        value={value ? 'yes' : 'no'}
        onValueChange={(e) => onChange(e.value === 'yes')}
        size="sm"
      >
        <HStack gap="4">
          {(['yes', 'no'] as const).map((v) => (
            <RadioGroup.Item key={v} value={v} data-testid={`${name}-${v}`}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{v === 'yes' ? 'Yes' : 'No'}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </HStack>
      </RadioGroup.Root>
      {errors?.map((e) => (
        <Field.ErrorText key={e}>{e}</Field.ErrorText>
      ))}
    </Field.Root>
  );
}

/**
 * Sales method, the transaction questions (shippable and service exclusive)
 * and the product: an existing one of the MID, or a new one with a category
 * (the new-product fields are disabled while an existing product is chosen).
 */
export function StepDetails({
  midId,
  draft,
  onChange,
  errors,
}: {
  midId: number;
  draft: DetailsDraft;
  onChange: (patch: Partial<DetailsDraft>) => void;
  errors: FieldErrors;
}) {
  const products = useProducts(midId, '');
  const categories = useCategories(midId);
  const existing = !!draft.product_id;
  return (
    <Stack gap="4">
      <SimpleGrid columns={2} gap="3">
        <Field.Root required invalid={!!errors.sale_type}>
          <Field.Label htmlFor="builder-sale-type">
            Sales Method
            <Field.RequiredIndicator />
          </Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              id="builder-sale-type"
              value={draft.sale_type}
              onChange={(e) => onChange({ sale_type: e.target.value })}
            >
              <option value="">Select...</option>
              {SALE_TYPES.map((s) => (
                <option key={s.id} value={String(s.id)}>
                  {s.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {errors.sale_type?.map((e) => (
            <Field.ErrorText key={e}>{e}</Field.ErrorText>
          ))}
        </Field.Root>
        <Field.Root invalid={!!errors.product_id}>
          <Field.Label htmlFor="builder-product">Product</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              id="builder-product"
              value={draft.product_id}
              onChange={(e) => onChange({ product_id: e.target.value })}
            >
              <option value="">New product...</option>
              {products.data?.data.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {products.data && !products.data.data.length && <Field.HelperText>{M.noProducts}</Field.HelperText>}
          {errors.product_id?.map((e) => (
            <Field.ErrorText key={e}>{e}</Field.ErrorText>
          ))}
        </Field.Root>
        <Field.Root required={!existing} disabled={existing} invalid={!!errors.new_product_name}>
          <Field.Label htmlFor="builder-new-product">
            New Product Name
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            id="builder-new-product"
            value={draft.new_product_name}
            onChange={(e) => onChange({ new_product_name: e.target.value })}
          />
          {errors.new_product_name?.map((e) => (
            <Field.ErrorText key={e}>{e}</Field.ErrorText>
          ))}
        </Field.Root>
        <Field.Root required={!existing} disabled={existing} invalid={!!errors.category_id}>
          <Field.Label htmlFor="builder-category">
            Product Category
            <Field.RequiredIndicator />
          </Field.Label>
          <NativeSelect.Root disabled={existing}>
            <NativeSelect.Field
              id="builder-category"
              value={draft.category_id}
              onChange={(e) => onChange({ category_id: e.target.value })}
            >
              <option value="">Select...</option>
              {categories.data?.data.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {categories.data && !categories.data.data.length && (
            <Field.HelperText>{M.noCategories}</Field.HelperText>
          )}
          {errors.category_id?.map((e) => (
            <Field.ErrorText key={e}>{e}</Field.ErrorText>
          ))}
        </Field.Root>
        <Field.Root disabled={existing} gridColumn="1 / -1">
          <Field.Label htmlFor="builder-new-product-description">New Product Description</Field.Label>
          <Textarea
            id="builder-new-product-description"
            rows={4}
            value={draft.new_product_description}
            onChange={(e) => onChange({ new_product_description: e.target.value })}
          />
        </Field.Root>
      </SimpleGrid>
      <SimpleGrid columns={3} gap="3">
        <YesNo
          label="Is the product shippable?"
          name="is_shippable"
          value={draft.is_shippable}
          // Shippable and service are exclusive (spec 2 §4).
          onChange={(v) => onChange(v ? { is_shippable: true, is_service: false } : { is_shippable: false })}
          errors={errors.is_shippable ?? errors.type_id}
        />
        <YesNo
          label="Is it a service?"
          name="is_service"
          value={draft.is_service}
          onChange={(v) => onChange(v ? { is_service: true, is_shippable: false } : { is_service: false })}
          errors={errors.is_service}
        />
        <YesNo
          label="Is it a subscription?"
          name="is_subscription"
          value={draft.is_subscription}
          onChange={(v) => onChange({ is_subscription: v })}
        />
      </SimpleGrid>
      {draft.is_shippable && draft.is_service && <Text color="fg.error">{M.exclusive}</Text>}
    </Stack>
  );
}
