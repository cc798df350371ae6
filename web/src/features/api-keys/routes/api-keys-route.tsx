import { ApiKeysPage } from '../components/api-keys-page';

/** /api-keys. */
export default function ApiKeysRoute() {
  return <ApiKeysPage />;
}
