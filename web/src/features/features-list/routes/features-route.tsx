import { Flex, Spinner, Tabs } from '@chakra-ui/react';
import type { FeatureCatalogue } from '@portal/contracts';
import type { ReactNode } from 'react';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { useTenant } from '../../../lib/tenant-config';
import { useFeatureCatalogue } from '../api/get-feature-catalogue';
import { RoleMatrix } from '../components/role-matrix';
import { RoleMenus, type MenuOf } from '../components/role-menus';
import { TenantSettings } from '../components/tenant-settings';

/**
 * /features (spec 1 §2.2; feature features-list, staff only): what this
 * tenant has on, read-only: its settings and flags, the features and site
 * permissions of each role, and the menu each role sees.
 */
export default function FeaturesRoute({ menuOf }: { menuOf: MenuOf }) {
  const tenant = useTenant();
  const catalogue = useFeatureCatalogue();
  const loaded = (render: (c: FeatureCatalogue) => ReactNode) => {
    if (catalogue.data) return render(catalogue.data);
    if (catalogue.isError)
      return <Notice status="error" title={catalogue.error.message} testId="features-error" />;
    return (
      <Flex p="10" justify="center">
        <Spinner size="lg" color="brand.solid" />
      </Flex>
    );
  };
  return (
    <Page data-testid="features-page">
      <PageHeader
        title="Features"
        description={`What ${tenant.site_name} has on. Per-user site permissions and the read-only flag refine the roles below.`}
      />
      <Tabs.Root defaultValue="tenant" variant="line" lazyMount>
        <Tabs.List mb="4">
          <Tabs.Trigger value="tenant">Tenant and flags</Tabs.Trigger>
          <Tabs.Trigger value="features">Features by role</Tabs.Trigger>
          <Tabs.Trigger value="resources">Site permissions by role</Tabs.Trigger>
          <Tabs.Trigger value="menus">Menus by role</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="tenant">
          <TenantSettings tenant={tenant} />
        </Tabs.Content>
        <Tabs.Content value="features">
          {loaded((c) => (
            <RoleMatrix
              rows={c.features}
              roles={c.roles}
              held={(r) => r.feature_ids}
              testId="features-matrix"
            />
          ))}
        </Tabs.Content>
        <Tabs.Content value="resources">
          {loaded((c) => (
            <RoleMatrix
              rows={c.resources}
              roles={c.roles}
              held={(r) => r.resource_ids}
              testId="resources-matrix"
            />
          ))}
        </Tabs.Content>
        <Tabs.Content value="menus">
          {loaded((c) => (
            <RoleMenus catalogue={c} menuOf={menuOf} />
          ))}
        </Tabs.Content>
      </Tabs.Root>
    </Page>
  );
}
