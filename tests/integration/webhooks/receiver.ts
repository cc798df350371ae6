import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** What a test receiver got: the raw body (the signed text) and the headers. */
export interface Received {
  path: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A webhook endpoint for tests: records every POST and answers the next
 * status of `answers` (then 200), so retries can be provoked.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  answers: number[] = [];
  /** Replaces the default answer (redirects, endless or slow bodies). */
  respond: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  #server: Server | undefined;
  #url = '';

  async start(host: string): Promise<string> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({
          path: req.url ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers,
        });
        if (this.respond) return this.respond(req, res);
        res.statusCode = this.answers.shift() ?? 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, host, resolve));
    const address = this.#server.address();
    if (!address || typeof address === 'string') throw new Error('receiver did not listen');
    this.#url = `http://${host}:${address.port}`;
    return this.#url;
  }

  get url(): string {
    return this.#url;
  }

  /** Waits until `n` requests arrived (or fails after the timeout). */
  async waitFor(n: number, timeoutMs = 20_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n) {
      if (Date.now() > deadline) throw new Error(`receiver got ${this.received.length} of ${n} requests`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return this.received;
  }

  close(): Promise<void> {
    this.#server?.closeAllConnections();
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
