import zlib from 'node:zlib'

// Photos of the demo installations: two small real PNG pictures of an AED cabinet (close-up and far
// view), drawn here.

type Rgb = readonly [number, number, number]

function canvas(w: number, h: number) {
  const px = new Uint8Array(w * h * 3)
  const set = (x: number, y: number, c: Rgb) => {
    if (x < 0 || y < 0 || x >= w || y >= h) return
    px.set(c, (y * w + x) * 3)
  }
  const rect = (x: number, y: number, rw: number, rh: number, c: Rgb) => {
    for (let j = Math.max(0, y); j < Math.min(h, y + rh); j++)
      for (let i = Math.max(0, x); i < Math.min(w, x + rw); i++) set(i, j, c)
  }
  /** Fills every pixel whose centre `inside` accepts, within the box. */
  const shape = (
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    c: Rgb,
    inside: (x: number, y: number) => boolean,
  ) => {
    for (let y = Math.floor(y0); y <= y1; y++)
      for (let x = Math.floor(x0); x <= x1; x++) if (inside(x + 0.5, y + 0.5)) set(x, y, c)
  }
  const circle = (cx: number, cy: number, r: number, c: Rgb) =>
    shape(cx - r, cy - r, cx + r, cy + r, c, (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r)
  const polygon = (pts: [number, number][], c: Rgb) => {
    const xs = pts.map((p) => p[0])
    const ys = pts.map((p) => p[1])
    shape(Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys), c, (x, y) => {
      let inside = false
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [xi, yi] = pts[i]
        const [xj, yj] = pts[j]
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
      }
      return inside
    })
  }
  /** A heart with a lightning bolt, the AED sign, centred at (cx, cy) with radius r. */
  const aedSign = (cx: number, cy: number, r: number) => {
    const red: Rgb = [214, 40, 40]
    circle(cx - r / 2, cy - r / 4, r / 2, red)
    circle(cx + r / 2, cy - r / 4, r / 2, red)
    polygon(
      [
        [cx - r, cy - r / 8],
        [cx + r, cy - r / 8],
        [cx, cy + r],
      ],
      red,
    )
    polygon(
      [
        [cx + r * 0.15, cy - r * 0.7],
        [cx - r * 0.35, cy + r * 0.05],
        [cx - r * 0.02, cy + r * 0.05],
        [cx - r * 0.2, cy + r * 0.7],
        [cx + r * 0.35, cy - r * 0.1],
        [cx + r * 0.02, cy - r * 0.1],
      ],
      [255, 255, 255],
    )
  }
  /** "AED" in a 5x7 pixel font scaled by `s`. */
  const text = (x: number, y: number, s: number, c: Rgb) => {
    const glyphs = [
      ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
      ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
      ['11110', '10001', '10001', '10001', '10001', '10001', '11110'],
    ]
    glyphs.forEach((g, k) => {
      g.forEach((row, j) => {
        for (let i = 0; i < 5; i++) if (row[i] === '1') rect(x + (k * 6 + i) * s, y + j * s, s, s, c)
      })
    })
  }
  return { w, h, px, rect, circle, polygon, aedSign, text }
}

/** A PNG file (8-bit RGB) of the canvas: signature, IHDR, one zlib IDAT, IEND. */
function png(c: ReturnType<typeof canvas>): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(zlib.crc32(body), body.length + 4)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(c.w, 0)
  header.writeUInt32BE(c.h, 4)
  header.set([8, 2, 0, 0, 0], 8) // depth 8, RGB, deflate, no filter method, no interlace
  const raw = Buffer.alloc((c.w * 3 + 1) * c.h)
  for (let y = 0; y < c.h; y++) {
    raw[y * (c.w * 3 + 1)] = 0 // filter: none
    raw.set(c.px.subarray(y * c.w * 3, (y + 1) * c.w * 3), y * (c.w * 3 + 1) + 1)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const GREEN: Rgb = [0, 150, 80]
const WHITE: Rgb = [250, 250, 248]

/** The close-up: the wall cabinet filling the picture, its window showing the AED. */
export function closeUpPhoto(): Buffer {
  const c = canvas(240, 180)
  c.rect(0, 0, 240, 180, [226, 220, 206])
  c.rect(58, 14, 124, 156, [190, 190, 186]) // shadow
  c.rect(54, 10, 124, 156, WHITE)
  c.rect(54, 10, 124, 34, GREEN)
  c.text(72, 17, 3, WHITE)
  c.aedSign(160, 27, 10)
  c.rect(66, 54, 100, 98, [176, 214, 232]) // glass
  c.rect(84, 70, 64, 70, [240, 120, 30]) // the defibrillator
  c.rect(92, 78, 48, 14, [60, 60, 60])
  c.circle(116, 116, 12, [60, 200, 90])
  c.rect(170, 92, 4, 24, [120, 120, 120]) // handle
  return png(c)
}

/** The far view: a corridor with the green cabinet on the wall beside a door. */
export function farViewPhoto(): Buffer {
  const c = canvas(240, 180)
  c.rect(0, 0, 240, 124, [214, 208, 194])
  c.rect(0, 0, 240, 10, [245, 245, 240]) // ceiling
  c.rect(70, 3, 40, 5, [255, 250, 200]) // light
  c.rect(150, 3, 40, 5, [255, 250, 200])
  c.rect(0, 124, 240, 56, [150, 146, 138]) // floor
  c.polygon(
    [
      [0, 180],
      [90, 124],
      [150, 124],
      [240, 180],
    ],
    [168, 164, 156],
  )
  c.rect(20, 40, 46, 84, [132, 94, 60]) // door
  c.circle(58, 84, 3, [220, 200, 120])
  c.rect(180, 20, 18, 104, [200, 194, 180]) // pillar
  c.rect(104, 54, 34, 42, WHITE) // the cabinet
  c.rect(104, 54, 34, 10, GREEN)
  c.aedSign(121, 80, 7)
  c.rect(96, 44, 50, 6, GREEN) // the sign above it
  return png(c)
}

/**
 * A first-aid certificate (救护员证) for the demo responders: a cream card with a red border,
 * the AED sign, the holder's photo box, lines of text and the issuer's red seal.
 */
export function certificatePhoto(): Buffer {
  const c = canvas(240, 160)
  const red: Rgb = [196, 30, 36]
  const ink: Rgb = [90, 86, 80]
  const cream: Rgb = [250, 244, 228]
  c.rect(0, 0, 240, 160, [210, 206, 198])
  c.rect(10, 8, 220, 144, red)
  c.rect(14, 12, 212, 136, cream)
  c.rect(14, 12, 212, 26, red) // title band
  c.text(96, 18, 2, WHITE)
  c.circle(34, 25, 11, WHITE) // the sign on a white disc: red on the red band would vanish
  c.aedSign(34, 26, 8)
  c.rect(26, 50, 52, 66, [200, 214, 230]) // the holder's photo
  c.circle(52, 72, 12, [150, 160, 176])
  c.rect(34, 90, 36, 26, [150, 160, 176])
  for (let i = 0; i < 5; i++) c.rect(92, 54 + i * 14, i === 4 ? 70 : 110 - (i % 2) * 24, 5, ink) // text lines
  c.circle(178, 118, 20, red) // the seal: a red ring with a star
  c.circle(178, 118, 16, cream)
  c.polygon(
    [
      [178, 106],
      [181, 114],
      [190, 115],
      [183, 120],
      [185, 129],
      [178, 124],
      [171, 129],
      [173, 120],
      [166, 115],
      [175, 114],
    ],
    red,
  )
  c.rect(26, 126, 60, 4, ink)
  return png(c)
}
