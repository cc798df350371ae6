import { WinOddsAdmin } from '../components/win-odds-admin';

/** /win-odds: the win odds model's evaluation and 'Retrain now', for the provider's staff (issue 33). */
export default function WinOddsRoute() {
  return <WinOddsAdmin />;
}
