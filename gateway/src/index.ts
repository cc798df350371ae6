export { buildGateway, type GatewayDeps } from './app';
export { buildMetricsServer, GatewayMetrics } from './metrics/metrics';
export { loadTenants } from './tenants/load';
export { POLICY } from './policy/policy-table';
