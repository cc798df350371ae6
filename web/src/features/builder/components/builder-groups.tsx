import type { BuilderGroup } from '@portal/contracts';
import { Box, Heading, HStack, SimpleGrid, Stack } from '@chakra-ui/react';
import { GROUP_ICONS, type FieldErrors, type Values } from '../lib/builder-form';
import { BuilderFieldInput } from './builder-field';
import { GroupIcon } from './builder-icons';

/** Field groups with their icons; fields full or half width. */
export function BuilderGroups({
  groups,
  values,
  errors,
  onChange,
}: {
  groups: readonly BuilderGroup[];
  values: Values;
  errors: FieldErrors;
  onChange: (id: number, value: string) => void;
}) {
  return (
    <Stack gap="5">
      {groups.map((g) => {
        const icon = GROUP_ICONS[g.id];
        return (
          <Box key={g.id} data-testid={`builder-group-${g.id}`}>
            <HStack mb="2">
              {icon && <GroupIcon name={icon} />}
              <Heading size="sm">{g.name}</Heading>
            </HStack>
            <SimpleGrid columns={2} gap="3">
              {g.fields.map((f) => (
                <BuilderFieldInput
                  key={f.id}
                  field={f}
                  value={values[f.id] ?? ''}
                  errors={errors[String(f.id)]}
                  onChange={(v) => onChange(f.id, v)}
                />
              ))}
            </SimpleGrid>
          </Box>
        );
      })}
    </Stack>
  );
}
