import { describe, expect, it } from 'vitest';
import { embedHost, embedUrl } from './embed-url';

const base = {
  host: 'alerts.example',
  currentHostname: 'portal.example.com',
  merchantId: 12,
  showAlertsBanner: false,
  clientId: 'c1',
  verifyToken: 'v',
  theme: null,
  username: 'u',
  email: 'e@x',
  firstName: 'F',
  lastName: 'L',
  identity: 'id',
  sessionToken: 's',
  redirectHost: 'portal.example.com',
};

describe('embed url', () => {
  it.each(['a-sbx.x', 'a-stg.x', 'a-dev.x', 'a-qa.x', 'a-uat.x', 'a-demo.x', 'localhost', 'devtools.x'])(
    'prefixes the host on %s',
    (h) => expect(embedHost('alerts.example', h)).toBe('dev.alerts.example'),
  );
  it('keeps production hosts', () =>
    expect(embedHost('alerts.example', 'portal.example.com')).toBe('alerts.example'));
  it('chooses the view and carries every parameter', () => {
    const inquiries = new URL(embedUrl(base));
    expect(inquiries.pathname).toBe('/dispute-inquiries');
    expect(inquiries.searchParams.get('theme')).toBe('default');
    expect([...inquiries.searchParams.keys()]).toHaveLength(10);
    expect(new URL(embedUrl({ ...base, showAlertsBanner: true })).pathname).toBe('/deflector');
    expect(new URL(embedUrl({ ...base, merchantId: 409 })).pathname).toBe('/preview/deflector');
  });
});
