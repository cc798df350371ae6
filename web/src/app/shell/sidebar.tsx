import { Badge, Box, Collapsible, Flex, Icon, Stack, Text } from '@chakra-ui/react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { activeSection, type MenuItem, type MenuSection } from './menu';

function Entry({ item, onNavigate }: { item: MenuItem; onNavigate: (item: MenuItem) => void }) {
  return (
    <NavLink
      to={item.path}
      onClick={() => onNavigate(item)}
      data-testid={`menu-${item.path.slice(1).replace(/\//g, '-')}`}
    >
      {({ isActive }) => (
        <Flex
          align="center"
          gap="2"
          px="4"
          py="2"
          borderRadius="md"
          fontSize="sm"
          bg={isActive ? 'brand.solid' : 'transparent'}
          color={isActive ? 'brand.contrast' : 'sidebar.fg'}
          _hover={{ bg: isActive ? 'brand.solid' : 'sidebar.hover' }}
        >
          <Text flex="1">{item.label}</Text>
          {item.marker && (
            <Badge size="sm" bg="accent" color="sidebar.bg" data-testid="variant-marker">
              {item.marker}
            </Badge>
          )}
        </Flex>
      )}
    </NavLink>
  );
}

function Section({
  section,
  open,
  onToggle,
  onNavigate,
}: {
  section: MenuSection;
  open: boolean;
  onToggle: () => void;
  onNavigate: (i: MenuItem) => void;
}) {
  if (section.single) return <Entry item={section.items[0]!} onNavigate={onNavigate} />;
  return (
    <Collapsible.Root open={open} onOpenChange={onToggle}>
      <Collapsible.Trigger asChild>
        <Flex
          as="button"
          w="full"
          px="4"
          py="2"
          fontSize="xs"
          fontWeight="bold"
          textTransform="uppercase"
          letterSpacing="wider"
          color="sidebar.fg"
          opacity={0.75}
          justify="space-between"
          cursor="pointer"
        >
          <span>{section.label}</span>
          <Icon size="sm">{open ? <ChevronDown /> : <ChevronRight />}</Icon>
        </Flex>
      </Collapsible.Trigger>
      <Collapsible.Content>
        <Stack gap="0.5" pl="2">
          {section.items.map((i) => (
            <Entry key={i.path} item={i} onNavigate={onNavigate} />
          ))}
        </Stack>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

/** The menu with the merchant's business name; the active section stays open. */
export function Sidebar({
  sections,
  businessName,
  onNavigate,
}: {
  sections: MenuSection[];
  businessName: string;
  onNavigate: (item: MenuItem) => void;
}) {
  const { pathname } = useLocation();
  const active = activeSection(sections, pathname);
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  return (
    <Box
      as="nav"
      aria-label="Main menu"
      bg="sidebar.bg"
      color="sidebar.fg"
      h="full"
      overflowY="auto"
      py="4"
      px="2"
      data-testid="sidebar"
    >
      <Text px="4" pb="4" fontWeight="semibold" fontSize="md" data-testid="business-name">
        {businessName}
      </Text>
      <Stack gap="1">
        {sections.map((s) => (
          <Section
            key={s.label}
            section={s}
            open={toggled[s.label] ?? s.label === active}
            onToggle={() => setToggled((t) => ({ ...t, [s.label]: !(t[s.label] ?? s.label === active) }))}
            onNavigate={onNavigate}
          />
        ))}
      </Stack>
    </Box>
  );
}
