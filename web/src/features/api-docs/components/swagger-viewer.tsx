import { Box, Flex, Spinner } from '@chakra-ui/react';
import { IMPERSONATE_HEADER } from '@portal/contracts';
import { useEffect, useRef, useState } from 'react';
import { Notice } from '../../../components/notice';
import { getImpersonation } from '../../../lib/impersonation';
import { getAccessToken } from '../../../lib/token-store';

/**
 * Loaded with this screen only: Swagger UI and its stylesheet are a large chunk of their own. Our
 * contrast fixes come after its stylesheet (same selectors, so the later one wins).
 */
const loadSwaggerUi = () =>
  Promise.all([
    import('swagger-ui-dist/swagger-ui-es-bundle.js'),
    import('swagger-ui-dist/swagger-ui.css').then(() => import('./swagger-a11y.css')),
  ]).then(([m]) => m.default);

/**
 * Swagger UI draws selects without an accessible name (axe select-name): the servers list inside an
 * empty label, named after the 'Servers' title beside it, and a parameter's choice list, named after
 * the parameter; and a main landmark of its own. It draws anew as calls open, so this runs on every
 * change under the viewer.
 */
function nameUnlabelledControls(root: HTMLElement): MutationObserver {
  const name = () => {
    const servers = root.querySelector<HTMLSelectElement>('select#servers:not([aria-label])');
    if (servers) servers.setAttribute('aria-label', 'Servers');
    // Its list of calls is a second <main> inside the portal's: a region of the page instead.
    for (const main of root.querySelectorAll('main:not([role])')) {
      main.setAttribute('role', 'region');
      main.setAttribute('aria-label', 'Calls');
    }
    for (const control of root.querySelectorAll<HTMLElement>(
      'tr[data-param-name] select:not([aria-label])',
    )) {
      const row = control.closest('tr[data-param-name]');
      control.setAttribute('aria-label', row?.getAttribute('data-param-name') ?? 'Value');
    }
  };
  name();
  const observer = new MutationObserver(name);
  observer.observe(root, { childList: true, subtree: true });
  return observer;
}

/**
 * Renders an OpenAPI document with Swagger UI. 'Try it out' is offered for
 * reads only and sends the signed-in user's token (and the impersonation
 * header), or the API key given in Authorize, so the gateway's policy
 * applies as everywhere else.
 */
export function SwaggerViewer({ spec }: { spec: Record<string, unknown> }) {
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let cancelled = false;
    const naming = ref.current ? nameUnlabelledControls(ref.current) : null;
    loadSwaggerUi()
      .then((SwaggerUI) => {
        if (cancelled || !ref.current) return;
        ref.current.replaceChildren();
        SwaggerUI({
          domNode: ref.current,
          spec,
          deepLinking: false,
          // Tags folded: a document holds over a hundred calls; the filter box finds one.
          docExpansion: 'none',
          defaultModelsExpandDepth: -1,
          supportedSubmitMethods: ['get'],
          displayRequestDuration: true,
          filter: true,
          requestInterceptor: (request) => {
            // A merchant API key given in Authorize (issue 35.1) is tried as that key, never impersonating;
            // otherwise the signed-in user's token (and 'Login As'), as the app's own calls.
            if (request.headers.Authorization) return request;
            const token = getAccessToken();
            if (token) request.headers.Authorization = `Bearer ${token}`;
            const imp = getImpersonation();
            if (imp) request.headers[IMPERSONATE_HEADER] = imp.id;
            return request;
          },
        });
        setState('ready');
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      naming?.disconnect();
    };
  }, [spec]);

  return (
    <Box>
      {state === 'loading' && (
        <Flex p="10" justify="center">
          <Spinner size="lg" color="brand.solid" />
        </Flex>
      )}
      {state === 'failed' && (
        <Notice status="error" title="The API documentation viewer could not be loaded.">
          Please reload the page.
        </Notice>
      )}
      <Box ref={ref} data-testid="api-docs-viewer" bg="white" borderRadius="md" />
    </Box>
  );
}
