import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from 'pdf-lib';
import { callGateway } from './gateway-client';

/**
 * The representment upload as the web app makes it (spec 2 §7 'Documents'):
 * ask for an upload form, post the form's fields plus `file` as multipart to
 * its url (the filesystem store's route at the gateway, or S3), then name the
 * keys in POST /api/docs/representment. Shared by the integration tests and
 * the bench.
 */
export interface UploadLink {
  url: string;
  fields: Record<string, string>;
}

/** Posts an upload form (fields, then `file`) to the gateway with the tenant's Host. */
export function postForm(
  gatewayUrl: string,
  tenant: string,
  link: UploadLink,
  file: Uint8Array,
  filename: string,
  contentType: string,
): Promise<{ status: number; body: string }> {
  const boundary = `----portal${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(link.fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  const body = Buffer.concat(parts);
  const target = new URL(link.url, gatewayUrl);
  const base = new URL(gatewayUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        path: target.pathname + target.search,
        method: 'POST',
        headers: {
          host: `${tenant}.localhost`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Upload link + form post; answers the stored key. */
export async function uploadFile(
  gatewayUrl: string,
  tenant: string,
  token: string,
  caseId: number,
  file: Uint8Array,
  filename: string,
  contentType: 'application/pdf' | 'image/jpeg',
): Promise<string> {
  const q = new URLSearchParams({ case_id: String(caseId), filename, content_type: contentType });
  const link = await callGateway(gatewayUrl, tenant, 'GET', `/api/docs/representment/upload-link?${q}`, {
    token,
  });
  if (link.status !== 200) throw new Error(`upload-link ${link.status}: ${JSON.stringify(link.json)}`);
  const form = link.json as unknown as UploadLink;
  const posted = await postForm(gatewayUrl, tenant, form, file, filename, contentType);
  if (posted.status !== 204 && posted.status !== 201 && posted.status !== 200)
    throw new Error(`form post ${posted.status}: ${posted.body}`);
  return form.fields.key!;
}

/** A PDF of `pages` pages with some text on each (optionally padded towards `padTo` bytes). */
export async function makePdf(
  pages: number,
  options: { padTo?: number; encrypt?: boolean } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Representment evidence page ${i + 1}`, { x: 72, y: 700, size: 18, font });
  }
  if (options.padTo) {
    // Incompressible content on the first page (a raw RGB image of noise), so the file really is that
    // large and the compiled PDF carries it too.
    const side = Math.max(1, Math.floor(Math.sqrt(options.padTo / 3)));
    const image = doc.context.stream(randomBytes(side * side * 3), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: side,
      Height: side,
      ColorSpace: 'DeviceRGB',
      BitsPerComponent: 8,
    });
    const ref = doc.context.register(image);
    const page = doc.getPage(0);
    page.node.setXObject(PDFName.of('Noise'), ref);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(200, 0, 0, 200, 72, 400),
      drawObject('Noise'),
      popGraphicsState(),
    );
  }
  let bytes = await doc.save({ useObjectStreams: false });
  if (options.encrypt) {
    // pdf-lib cannot encrypt: add an /Encrypt entry to the trailer, which is how readers detect encryption.
    const text = Buffer.from(bytes).toString('latin1');
    const patched = text.replace(
      /trailer\s*<</,
      'trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O (x) /U (y) /P -4 >>\n',
    );
    bytes = Buffer.from(patched, 'latin1');
  }
  return bytes;
}
