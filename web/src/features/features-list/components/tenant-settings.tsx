import { Badge, DataList, Flex, Heading, Stack, Wrap } from '@chakra-ui/react';
import type { TenantBootstrap } from '@portal/contracts';

/** The tenant's configuration as the portal applies it: look-independent settings and every client flag. */
export function TenantSettings({ tenant }: { tenant: TenantBootstrap }) {
  const flags = Object.entries(tenant.flags).sort(([a], [b]) => a.localeCompare(b));
  const settings: [string, string][] = [
    ['Site name', tenant.site_name],
    ['Client kind', tenant.client_kind],
    ['Menu variant', tenant.menu_variant],
    ['Partner variant', `${tenant.variant.name} (marker ${tenant.variant.menu_marker || 'none'})`],
    ['Support e-mail', tenant.support_email],
    ['Idle sign-out', `${tenant.session.idle_seconds} s, warned ${tenant.session.warning_seconds} s before`],
    ['Service levels', tenant.service_levels.join(', ')],
    ['Dashboard tiles', tenant.dashboard.tiles.join(', ')],
    ['Dashboard pie chart', tenant.dashboard.pie_chart],
    ['Report charts', tenant.report_charts.join(', ') || 'none'],
    ['Help topics', tenant.help_topics.map((t) => t.title).join(', ') || 'none'],
    ['Alerts embed host', tenant.alerts_embed_host ?? 'none'],
  ];
  return (
    <Stack gap="6">
      <DataList.Root orientation="horizontal" size="sm" data-testid="features-tenant">
        {settings.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel minW="44">{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      <Stack gap="2">
        <Heading size="sm">Flags</Heading>
        <Wrap gap="2" data-testid="features-flags">
          {flags.map(([name, on]) => (
            <Badge
              key={name}
              colorPalette={on ? 'green' : 'gray'}
              variant={on ? 'solid' : 'outline'}
              data-flag={name}
              data-on={on}
            >
              {name}: {on ? 'on' : 'off'}
            </Badge>
          ))}
          {!flags.length && <Flex color="fg.muted">No flags are set.</Flex>}
        </Wrap>
      </Stack>
    </Stack>
  );
}
