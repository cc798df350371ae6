import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadTenantBootstrap } from './lib/tenant-config';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
void loadTenantBootstrap().then((tenant) => {
  createRoot(root).render(
    <StrictMode>
      <App tenant={tenant} />
    </StrictMode>,
  );
});
