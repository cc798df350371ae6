import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WinOddsScore } from '@portal/contracts';
import { WinOddsPanel } from './win-odds-panel';

const system = createSystem(defaultConfig);
afterEach(cleanup);

const score = (over: Partial<WinOddsScore> = {}): WinOddsScore => ({
  probability: 0.624,
  expected_value: 152.5,
  recommendation: 'Fight',
  source: 'model',
  factors: [
    { label: 'Proof of Delivery attached', effect: 0.91 },
    { label: 'Reason code 10.4', effect: -0.42 },
  ],
  scored_at: '2026-11-27T00:00:00Z',
  ...over,
});

const draw = (win_odds: WinOddsScore | null) =>
  render(
    <ChakraProvider value={system}>
      <WinOddsPanel row={{ win_odds, dispute_currency: 'USD' }} />
    </ChakraProvider>,
  );

describe('builder win odds panel (issue 33)', () => {
  it('shows the probability, the recommendation, the expected value and the factors', () => {
    draw(score());
    const panel = screen.getByTestId('builder-win-odds');
    expect(panel.textContent).toContain('Win 62% · Fight');
    expect(panel.textContent).toContain('$152.50');
    expect(screen.getByTestId('builder-win-odds-factors').textContent).toBe(
      'Driven by: Proof of Delivery attached (raises the odds); Reason code 10.4 (lowers the odds)',
    );
  });

  it('says when the numbers are the reason code history, and shows nothing for an unscored case', () => {
    draw(
      score({
        source: 'baseline',
        recommendation: 'Accept',
        expected_value: -20,
        factors: [{ label: 'Reason code 13.1: won 40 of 90 closed cases', effect: 0 }],
      }),
    );
    expect(screen.getByTestId('builder-win-odds').textContent).toContain('the model did not beat it');
    expect(screen.getByTestId('builder-win-odds-factors').textContent).toBe(
      'Driven by: Reason code 13.1: won 40 of 90 closed cases',
    );
    cleanup();
    draw(null);
    expect(screen.queryByTestId('builder-win-odds')).toBeNull();
  });
});
