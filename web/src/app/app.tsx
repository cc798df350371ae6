import { useEffect, useState } from 'react';

interface Health {
  status: string;
  checks: Record<string, string>;
}

/** Placeholder shell until the web app issue lands: shows that the stack answers. */
export function App() {
  const [health, setHealth] = useState<Health | null>(null);
  useEffect(() => {
    fetch('/api/health')
      .then((r) => r.json() as Promise<Health>)
      .then(setHealth)
      .catch(() => setHealth(null));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 32 }}>
      <h1>Chargeback Portal</h1>
      <p>The portal is starting up.</p>
      {health && (
        <p data-testid="health">
          Status: {health.status} ({Object.entries(health.checks).map(([k, v]) => `${k} ${v}`).join(', ')})
        </p>
      )}
    </main>
  );
}
