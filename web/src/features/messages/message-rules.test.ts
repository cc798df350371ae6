import type { PortalMessageData } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { applicableMessage, readDismissed, rememberDismissed, routeMatches } from './message-rules';

const msg = (id: number, show_on: string[]): PortalMessageData => ({
  id,
  header: `m${id}`,
  sub_header: '',
  message: '',
  show_on,
  actions: {},
});

class MemoryStorage implements Storage {
  private m = new Map<string, string>();
  get length() {
    return this.m.size;
  }
  clear() {
    this.m.clear();
  }
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  key(i: number) {
    return [...this.m.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
}

describe('in-app messages (spec 3 §2 Messages)', () => {
  it('matches routes exactly, by prefix or everywhere', () => {
    expect(routeMatches(['/dashboard'], '/dashboard')).toBe(true);
    expect(routeMatches(['/dashboard'], '/dashboard/')).toBe(true);
    expect(routeMatches(['/dashboard'], '/dashboards')).toBe(false);
    expect(routeMatches(['/reports/*'], '/reports/alerts')).toBe(true);
    expect(routeMatches(['/reports/*'], '/reports')).toBe(true);
    expect(routeMatches(['/reports/*'], '/reportsx')).toBe(false);
    expect(routeMatches(['*'], '/help')).toBe(true);
    expect(routeMatches([], '/help')).toBe(false);
  });
  it('shows only the last applicable message not dismissed', () => {
    const list = [msg(1, ['/help']), msg(2, ['/help']), msg(3, ['/dashboard'])];
    expect(applicableMessage(list, '/help', new Set())?.id).toBe(2);
    expect(applicableMessage(list, '/help', new Set([2]))?.id).toBe(1);
    expect(applicableMessage(list, '/help', new Set([1, 2]))).toBeNull();
    expect(applicableMessage(list, '/users', new Set())).toBeNull();
  });
  it('remembers dismissed ids per tenant and user', () => {
    const s = new MemoryStorage();
    rememberDismissed(s, 'acme', 7, 2);
    rememberDismissed(s, 'acme', 7, 5);
    expect([...readDismissed(s, 'acme', 7)]).toEqual([2, 5]);
    expect(readDismissed(s, 'acme', 8).size).toBe(0);
    expect(readDismissed(s, 'northbank', 7).size).toBe(0);
    s.setItem('portal.messages.dismissed:acme:9', 'not json');
    expect(readDismissed(s, 'acme', 9).size).toBe(0);
  });
});
