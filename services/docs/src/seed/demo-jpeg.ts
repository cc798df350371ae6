/**
 * A small real baseline JPEG (JFIF, 8-bit greyscale, one flat tone) without an
 * image library: enough for demo templates and tests, and any decoder opens it.
 * Every 8x8 block has only a DC coefficient; the first block sets the tone,
 * the rest repeat it (DC difference 0), each followed by end-of-block.
 */
export function flatJpeg(width: number, height: number, grey = 235): Buffer {
  if (width < 1 || height < 1 || width > 4096 || height > 4096) throw new Error('bad JPEG size');
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const seg = (marker: number, body: number[]) => [
    0xff,
    marker,
    (body.length + 2) >> 8,
    (body.length + 2) & 255,
    ...body,
  ];
  const app0 = seg(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const dqt = seg(0xdb, [0x00, ...new Array<number>(64).fill(1)]);
  const sof = seg(0xc0, [8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0]);
  // DC table: symbol 0 -> '0', symbol 10 -> '10'. AC table: EOB (0x00) -> '0'.
  const dcBits = [1, 1, ...new Array<number>(14).fill(0)];
  const dht = seg(0xc4, [0x00, ...dcBits, 0, 10, 0x10, 1, ...new Array<number>(15).fill(0), 0x00]);
  const sos = seg(0xda, [1, 1, 0x00, 0, 63, 0]);
  // DC of the first block: (tone - 128) * 8 with a unit quantiser; a light tone (192..255) is
  // category 10 (512..1023), written as its 10 bits.
  const dc = (Math.max(192, Math.min(255, Math.round(grey))) - 128) * 8;
  const bits: number[] = [1, 0];
  for (let i = 9; i >= 0; i--) bits.push((dc >> i) & 1);
  bits.push(0); // EOB
  for (let b = 1; b < blocks; b++) bits.push(0, 0); // DC difference 0, EOB
  while (bits.length % 8) bits.push(1);
  const data: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    let byte = 0;
    for (let j = 0; j < 8; j++) byte = (byte << 1) | bits[i + j]!;
    data.push(byte);
    if (byte === 0xff) data.push(0x00); // byte stuffing
  }
  return Buffer.from([0xff, 0xd8, ...app0, ...dqt, ...sof, ...dht, ...sos, ...data, 0xff, 0xd9]);
}
