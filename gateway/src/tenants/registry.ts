import { EventEmitter } from 'node:events';
import { watch, type FSWatcher } from 'node:fs';
import { TenantConfigError, type Logger } from '@portal/core';
import { loadTenants, type Tenant } from './load';

/**
 * The tenants in force, resolved by host. Reloaded when a file of the
 * directory changes; a change that does not validate is refused and logged,
 * and the last good configuration stays in force.
 */
export class TenantRegistry extends EventEmitter {
  private byHost = new Map<string, Tenant>();
  private byId = new Map<string, Tenant>();
  private fallback: Tenant | undefined;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {
    super();
    // Throws at start-up: an invalid configuration stops the gateway with a message.
    this.install(loadTenants(dir));
  }

  private install(tenants: Tenant[]) {
    const byHost = new Map<string, Tenant>();
    const byId = new Map<string, Tenant>();
    for (const t of tenants) {
      byId.set(t.config.id, t);
      for (const d of t.config.domains) byHost.set(d, t);
    }
    this.byHost = byHost;
    this.byId = byId;
    this.fallback = tenants.find((t) => t.config.default);
  }

  /** Re-reads the directory; false (and the old configuration kept) when it is invalid. */
  reload(): boolean {
    try {
      const tenants = loadTenants(this.dir);
      const before = new Map([...this.byId].map(([id, t]) => [id, t.version]));
      this.install(tenants);
      const changed = tenants.filter((t) => before.get(t.config.id) !== t.version).map((t) => t.config.id);
      if (changed.length) this.log.info({ changed }, 'tenant configuration reloaded');
      this.emit('reload', changed);
      return true;
    } catch (error) {
      const problems = error instanceof TenantConfigError ? error.problems : [String(error)];
      this.log.error(
        { problems },
        'tenant configuration change refused; the last good configuration stays in force',
      );
      this.emit('reload-refused', problems);
      return false;
    }
  }

  /** Watches the directory (and its assets) and reloads, debounced, on change. */
  watch(debounceMs = 150) {
    if (this.watcher) return;
    this.watcher = watch(this.dir, { recursive: false }, () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.reload(), debounceMs);
    });
    this.watcher.on('error', (error) => this.log.warn({ err: error }, 'tenant configuration watch failed'));
    this.watcher.unref();
  }

  close() {
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** The tenant of a host name (lower case, no port); the default tenant for unknown hosts. */
  resolve(hostname: string): Tenant | undefined {
    return this.byHost.get(hostname) ?? this.fallback;
  }

  get(id: string): Tenant | undefined {
    return this.byId.get(id);
  }

  all(): Tenant[] {
    return [...this.byId.values()];
  }
}
