import { Badge, Box, Collapsible, Flex, Icon, Stack, Text } from '@chakra-ui/react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { activeItemPath, activeSection, type MenuItem, type MenuSection } from './menu';

/** One entry; `active` is decided once for the whole menu (the most specific match), not per link. */
function Entry({
  item,
  active,
  onNavigate,
}: {
  item: MenuItem;
  active: boolean;
  onNavigate: (item: MenuItem) => void;
}) {
  return (
    <Link
      to={item.path}
      onClick={() => onNavigate(item)}
      aria-current={active ? 'page' : undefined}
      data-testid={`menu-${item.path.slice(1).replace(/\//g, '-')}`}
    >
      <Flex
        align="center"
        gap="2"
        px="4"
        py="2"
        borderRadius="md"
        fontSize="sm"
        bg={active ? 'brand.solid' : 'transparent'}
        color={active ? 'brand.contrast' : 'sidebar.fg'}
        _hover={{ bg: active ? 'brand.solid' : 'sidebar.hover' }}
      >
        <Text flex="1">{item.label}</Text>
        {item.marker && (
          <Badge size="sm" bg="accent" color="sidebar.bg" data-testid="variant-marker">
            {item.marker}
          </Badge>
        )}
      </Flex>
    </Link>
  );
}

function Section({
  section,
  activePath,
  open,
  onToggle,
  onNavigate,
}: {
  section: MenuSection;
  activePath: string | null;
  open: boolean;
  onToggle: () => void;
  onNavigate: (i: MenuItem) => void;
}) {
  if (section.single) {
    const item = section.items[0]!;
    return <Entry item={item} active={item.path === activePath} onNavigate={onNavigate} />;
  }
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
            <Entry key={i.path} item={i} active={i.path === activePath} onNavigate={onNavigate} />
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
  const activePath = activeItemPath(sections, pathname);
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
            activePath={activePath}
            open={toggled[s.label] ?? s.label === active}
            onToggle={() => setToggled((t) => ({ ...t, [s.label]: !(t[s.label] ?? s.label === active) }))}
            onNavigate={onNavigate}
          />
        ))}
      </Stack>
    </Box>
  );
}
