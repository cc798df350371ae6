import type * as Fastify from 'fastify';
import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * Every route a Fastify app registers, as its `onRoute` hook sees it: for
 * tests that must know an app's whole route list (the policy-table coverage
 * test), including routes its OpenAPI document hides.
 *
 * A test file swaps the `fastify` factory for a recording one, so the real
 * apps (the services' buildServiceApp, the gateway's buildGateway) are built
 * unchanged and every instance records from its first route on:
 *
 *   vi.mock('fastify', async (importOriginal) =>
 *     (await import('../../support/route-recorder')).recordingFastify(await importOriginal()),
 *   );
 */
export interface RegisteredRoute {
  /** One method of the route (a route of several methods is one entry per method). */
  method: string;
  /** The path as registered (`:x` parameters, `*` wildcard), the instance's prefix included. */
  url: string;
  /** The route's schema tags (e.g. 'internal'). */
  tags: readonly string[];
  /** `schema.hide`: left out of the OpenAPI document. */
  hidden: boolean;
}

const recorded = new WeakMap<object, RegisteredRoute[]>();

type FastifyModule = typeof Fastify;

/** The `fastify` module with a factory whose instances record their routes (read them with routesOf). */
export function recordingFastify(real: FastifyModule): FastifyModule {
  const create = real.default as unknown as (...args: unknown[]) => FastifyInstance;
  const recording = (...args: unknown[]) => {
    const app = create(...args);
    const routes: RegisteredRoute[] = [];
    recorded.set(app, routes);
    app.addHook('onRoute', (route: RouteOptions) => {
      const schema = (route.schema ?? {}) as { tags?: string[]; hide?: boolean };
      for (const method of [route.method].flat())
        routes.push({ method, url: route.url, tags: schema.tags ?? [], hidden: schema.hide === true });
    });
    return app;
  };
  const factory = Object.assign(recording, real.default);
  return { ...real, default: factory, fastify: factory } as unknown as FastifyModule;
}

/** The routes `app` registered so far; throws when it was not built by the recording factory. */
export function routesOf(app: object): RegisteredRoute[] {
  const routes = recorded.get(app);
  if (!routes) throw new Error('this app was not built by the recording fastify factory (vi.mock it)');
  return routes;
}
