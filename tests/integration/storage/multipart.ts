import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** Helpers that post and fetch as a browser would, plus the raw forms a browser would never send. */

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface FileSpec {
  data: Buffer;
  filename?: string;
  type?: string;
}

/** The browser's form: the link's fields in order, then `file`, last (S3 ignores anything after it). */
export function uploadForm(fields: Record<string, string>, file?: FileSpec): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file)
    form.append(
      'file',
      new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }),
      file.filename ?? 'upload.bin',
    );
  return form;
}

/** A multipart body built by hand: for repeated fields and for bodies cut off mid-file. */
export function rawMultipart(
  parts: Array<{ name: string; value: string } | { name: string; file: FileSpec }>,
  boundary = `----portaltest${Math.random().toString(16).slice(2)}`,
): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.file.filename ?? 'upload.bin'}"\r\n` +
            `Content-Type: ${part.file.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.file.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** One request with node:http(s) (Host can be set, unlike fetch), the whole answer read. */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<Answer> {
  const u = new URL(url);
  const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      u,
      {
        method: options.method ?? 'GET',
        headers: {
          ...(options.body ? { 'content-length': String(options.body.length) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Declares the whole body, sends only the first `sendBytes` of it and drops
 * the connection: a browser tab closed mid-upload. Resolves once the socket is gone.
 */
export function sendAndDisconnect(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  sendBytes: number,
): Promise<void> {
  const u = new URL(url);
  const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(u, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.length) },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.subarray(0, sendBytes), () => {
      // Let the server start on the part it has, then go away.
      setTimeout(() => req.destroy(), 150);
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
