import { describe, expect, it } from 'vitest';
import { HELP_TOPICS, helpCards } from './help-topics';

describe('help topic cards (spec 3 §2 Help)', () => {
  it('lists the seven product topics', () => {
    expect(HELP_TOPICS.map((t) => t.title)).toEqual([
      'Chargebacks',
      'Alerts',
      'Case Management',
      'User Management',
      'Profile Settings',
      'ERTs',
      'Review and Response Features',
    ]);
  });
  it('shows only configured titles, in configured order, matched without case', () => {
    const cards = helpCards(
      [
        { title: 'erts', body: '' },
        { title: 'Chargebacks', body: 'Our own words.' },
        { title: 'CHARGEBACKS', body: 'duplicate' },
      ],
      new Set(['chargebacks']),
    );
    expect(cards.map((c) => c.title)).toEqual(['ERTs', 'Chargebacks']);
    expect(cards[1]!.description).toBe('Our own words.');
    expect(cards[0]!.description).toMatch(/ERT records/);
  });
  it("plays a topic's video only from the tenant's own assets", () => {
    const cards = helpCards(
      [
        { title: 'Alerts', body: '', video_url: '/tenant-assets/acme/help-alerts.webm' },
        { title: 'ERTs', body: '', video_url: 'https://elsewhere.example/v.mp4' },
        { title: 'Chargebacks', body: '' },
      ],
      new Set(),
    );
    expect(cards.map((c) => c.videoUrl)).toEqual([
      '/tenant-assets/acme/help-alerts.webm',
      undefined,
      undefined,
    ]);
  });
  it('links a screen only when the user holds its feature; unknown titles keep their body', () => {
    const cards = helpCards(
      [
        { title: 'Alerts', body: '' },
        { title: 'Case Management', body: '' },
        { title: 'Reading the dashboard', body: 'Tiles and charts.' },
      ],
      new Set(['alerts']),
    );
    expect(cards[0]!.screen?.path).toBe('/alerts');
    expect(cards[1]!.screen).toBeUndefined();
    expect(cards[2]).toMatchObject({ title: 'Reading the dashboard', description: 'Tiles and charts.' });
  });
});
