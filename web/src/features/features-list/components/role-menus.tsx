import { Box, Heading, List, SimpleGrid, Text } from '@chakra-ui/react';
import type { FeatureCatalogue } from '@portal/contracts';

type Role = FeatureCatalogue['roles'][number];
/** A menu as the shell builds it for a user holding these features and resources. */
export type MenuOf = (user: {
  features: { alias: string }[];
  resources: { url: string | null }[];
  roles: string[];
}) => { label: string; single?: boolean; items: { label: string; path: string }[] }[];

/** Each role's sidebar menu on this tenant (before per-user site permissions). */
export function RoleMenus({ catalogue, menuOf }: { catalogue: FeatureCatalogue; menuOf: MenuOf }) {
  const features = new Map(catalogue.features.map((f) => [f.id, f]));
  const resources = new Map(catalogue.resources.map((r) => [r.id, r]));
  const menuFor = (role: Role) =>
    menuOf({
      features: role.feature_ids.flatMap((id) => features.get(id) ?? []),
      resources: role.resource_ids.flatMap((id) => resources.get(id) ?? []),
      roles: [role.name],
    });
  return (
    <SimpleGrid columns={{ base: 1, md: 2, xl: 4 }} gap="4" data-testid="features-menus">
      {catalogue.roles.map((role) => (
        <Box key={role.id} borderWidth="1px" borderRadius="md" bg="white" p="4" data-role={role.name}>
          <Heading size="sm" mb="2">
            {role.label}
          </Heading>
          {menuFor(role).map((section) => (
            <Box key={section.label} mb="2">
              {!section.single && (
                <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase">
                  {section.label}
                </Text>
              )}
              <List.Root variant="plain" fontSize="sm">
                {section.items.map((item) => (
                  <List.Item key={item.path} title={item.path}>
                    {item.label}
                  </List.Item>
                ))}
              </List.Root>
            </Box>
          ))}
        </Box>
      ))}
    </SimpleGrid>
  );
}
