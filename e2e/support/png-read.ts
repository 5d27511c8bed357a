import zlib from 'node:zlib'

/** A decoded image: 8-bit RGBA pixels, row by row. */
export type Decoded = { width: number; height: number; rgba: Buffer }

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c
  const pa = Math.abs(p - a)
  const pb = Math.abs(p - b)
  const pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

/**
 * Decodes a PNG as Chromium's screenshots write them: 8-bit truecolour (RGB or RGBA), not
 * interlaced. Anything else throws, so a test never reads a colour it did not decode.
 */
export function decodePng(file: Buffer): Decoded {
  if (file.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG')
  let offset = 8
  let width = 0
  let height = 0
  let channels = 0
  const idat: Buffer[] = []
  while (offset < file.length) {
    const length = file.readUInt32BE(offset)
    const type = file.toString('latin1', offset + 4, offset + 8)
    const data = file.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      const [depth, colour, , , interlace] = data.subarray(8)
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0)
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`)
      channels = colour === 6 ? 4 : 3
    } else if (type === 'IDAT') idat.push(data)
    else if (type === 'IEND') break
    offset += 12 + length
  }
  const raw = zlib.inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const rows = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    const out = y * stride
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? rows[out + x - channels] : 0
      const up = y > 0 ? rows[out - stride + x] : 0
      const upLeft = y > 0 && x >= channels ? rows[out - stride + x - channels] : 0
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter]
      if (predictor === undefined) throw new Error(`bad PNG filter ${filter}`)
      rows[out + x] = (line[x] + predictor) & 0xff
    }
  }
  const rgba = Buffer.alloc(width * height * 4)
  for (let i = 0; i < width * height; i++) {
    rows.copy(rgba, i * 4, i * channels, i * channels + 3)
    rgba[i * 4 + 3] = channels === 4 ? rows[i * channels + 3] : 255
  }
  return { width, height, rgba }
}

/** The [r, g, b] of one pixel. */
export function pixelAt(image: Decoded, x: number, y: number): [number, number, number] {
  const i = (y * image.width + x) * 4
  return [image.rgba[i], image.rgba[i + 1], image.rgba[i + 2]]
}

/** '#rrggbb' as [r, g, b]. */
export const rgbOf = (hex: string): [number, number, number] => [
  Number.parseInt(hex.slice(1, 3), 16),
  Number.parseInt(hex.slice(3, 5), 16),
  Number.parseInt(hex.slice(5, 7), 16),
]

/** Whether two colours differ by at most `tolerance` in every channel. */
export const near = (a: readonly number[], b: readonly number[], tolerance = 24) =>
  a.every((v, i) => Math.abs(v - b[i]) <= tolerance)
