import zlib from 'node:zlib'
import { DATA_DICT } from '@aed/contracts/constants'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../context.ts'
import { seededRng } from '../lib/random.ts'
import { formatDate } from '../lib/time.ts'
import { createFactoryDevices } from '../modules/device/device.service.ts'
import type { DbOrTx } from './client.ts'
import type { deviceInspections, installationChanges } from './schema.ts'
import { many } from './sql.ts'

// The demo network's devices: about 300 AEDs registered at real places of the demo
// organisations' cities (GCJ-02, the district's code), looked after by the organisations' own
// administrators, in every opening state, expiry band and battery band, with a spread of
// statuses (mostly normal), photos, a year of inspections and changes; and 60 devices of factory
// stock. Deterministic: one seeded generator, dates relative to the day of seeding.

// ---------------------------------------------------------------------------------------------
// Photos: two small real PNG pictures of an AED cabinet (close-up and far view), drawn here.

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

// ---------------------------------------------------------------------------------------------
// Places: real streets and buildings of the demo cities, GCJ-02, with the district's code.

type Place = { name: string; address: string; code: string; lat: number; lon: number; kind: Kind }
/** What the place is: decides where in it the device hangs and when it is open. */
type Kind = 'station' | 'mall' | 'office' | 'hospital' | 'school' | 'sport' | 'park' | 'gov'

const p = (name: string, address: string, code: string, lat: number, lon: number, kind: Kind): Place => ({
  name,
  address,
  code,
  lat,
  lon,
  kind,
})

/** Per demo organisation: its city's places and how many devices it has there. */
const CITIES: { agency: string; count: number; stock: number; places: Place[] }[] = [
  {
    agency: 'hz',
    count: 70,
    stock: 6,
    places: [
      p('黄龙体育中心', '浙江省杭州市西湖区黄龙路1号', '330106', 30.2676, 120.1345, 'sport'),
      p('浙江大学玉泉校区', '浙江省杭州市西湖区浙大路38号', '330106', 30.2641, 120.1232, 'school'),
      p('西溪湿地周家村入口', '浙江省杭州市西湖区天目山路518号', '330106', 30.2714, 120.0752, 'park'),
      p('文三路东部软件园', '浙江省杭州市西湖区文三路90号', '330106', 30.2786, 120.1354, 'office'),
      p('西湖断桥', '浙江省杭州市西湖区北山街', '330106', 30.2596, 120.1511, 'park'),
      p('浙江省人民医院', '浙江省杭州市拱墅区上塘路158号', '330105', 30.2896, 120.1614, 'hospital'),
      p('武林广场地铁站', '浙江省杭州市拱墅区武林广场', '330105', 30.2718, 120.1631, 'station'),
      p('杭州东站', '浙江省杭州市上城区全福桥路2号', '330102', 30.2906, 120.2127, 'station'),
      p('杭州市民中心', '浙江省杭州市上城区解放东路18号', '330102', 30.2456, 120.2104, 'gov'),
      p('滨江区阿里巴巴园区', '浙江省杭州市滨江区网商路699号', '330108', 30.1893, 120.1919, 'office'),
      p('余杭区西溪园区', '浙江省杭州市余杭区文一西路969号', '330110', 30.2791, 120.0263, 'office'),
      p('萧山国际机场T3', '浙江省杭州市萧山区空港大道', '330109', 30.2355, 120.433, 'station'),
    ],
  },
  {
    agency: 'nj',
    count: 45,
    stock: 5,
    places: [
      p('南京鼓楼医院', '江苏省南京市鼓楼区中山路321号', '320106', 32.0576, 118.7797, 'hospital'),
      p('南京大学鼓楼校区', '江苏省南京市鼓楼区汉口路22号', '320106', 32.0561, 118.7786, 'school'),
      p('鼓楼广场', '江苏省南京市鼓楼区北京西路1号', '320106', 32.0602, 118.7781, 'park'),
      p('江苏省人民医院', '江苏省南京市鼓楼区广州路300号', '320106', 32.0553, 118.7693, 'hospital'),
      p('新街口地铁站', '江苏省南京市秦淮区中山南路1号', '320104', 32.0416, 118.784, 'station'),
      p('夫子庙', '江苏省南京市秦淮区贡院街152号', '320104', 32.0209, 118.7886, 'park'),
      p('南京站', '江苏省南京市玄武区龙蟠路111号', '320102', 32.0874, 118.7976, 'station'),
      p('南京奥体中心', '江苏省南京市建邺区江东中路222号', '320105', 32.0079, 118.7303, 'sport'),
      p('南京南站', '江苏省南京市雨花台区玉兰路98号', '320114', 31.9686, 118.7972, 'station'),
    ],
  },
  {
    agency: 'sz',
    count: 55,
    stock: 5,
    places: [
      p('深圳湾体育中心', '广东省深圳市南山区滨海大道3001号', '440305', 22.5223, 113.9436, 'sport'),
      p('腾讯滨海大厦', '广东省深圳市南山区海天二路33号', '440305', 22.5224, 113.9355, 'office'),
      p('深圳大学', '广东省深圳市南山区南海大道3688号', '440305', 22.5337, 113.9353, 'school'),
      p('海岸城购物中心', '广东省深圳市南山区文心五路33号', '440305', 22.517, 113.937, 'mall'),
      p('南山区人民医院', '广东省深圳市南山区桃园路89号', '440305', 22.5359, 113.9241, 'hospital'),
      p('世界之窗', '广东省深圳市南山区深南大道9037号', '440305', 22.5363, 113.9733, 'park'),
      p('科技园地铁站', '广东省深圳市南山区深南大道10028号', '440305', 22.5409, 113.9527, 'station'),
      p('深圳市民中心', '广东省深圳市福田区福中三路', '440304', 22.5435, 114.0579, 'gov'),
      p('深圳北站', '广东省深圳市龙华区致远中路28号', '440309', 22.609, 114.0291, 'station'),
      p('宝安国际机场T3', '广东省深圳市宝安区宝安机场', '440306', 22.6393, 113.8107, 'station'),
    ],
  },
  {
    agency: 'xm',
    count: 40,
    stock: 5,
    places: [
      p('厦门体育中心', '福建省厦门市思明区体育路2号', '350203', 24.493, 118.1233, 'sport'),
      p('中山路步行街', '福建省厦门市思明区中山路', '350203', 24.4561, 118.0831, 'mall'),
      p('厦门大学思明校区', '福建省厦门市思明区思明南路422号', '350203', 24.4381, 118.0962, 'school'),
      p('鼓浪屿轮渡码头', '福建省厦门市思明区鹭江道', '350203', 24.4596, 118.0722, 'station'),
      p('厦门火车站', '福建省厦门市思明区厦禾路900号', '350203', 24.4685, 118.1155, 'station'),
      p('曾厝垵环岛路', '福建省厦门市思明区环岛南路', '350203', 24.433, 118.122, 'park'),
      p('高崎国际机场', '福建省厦门市湖里区翔云一路', '350206', 24.5398, 118.13, 'station'),
      p('厦门北站', '福建省厦门市集美区岩内路', '350211', 24.64, 118.074, 'station'),
    ],
  },
  {
    agency: 'east',
    count: 35,
    stock: 12,
    places: [
      p('徐家汇地铁站', '上海市徐汇区漕溪北路', '310104', 31.195, 121.437, 'station'),
      p('上海体育场', '上海市徐汇区天钥桥路666号', '310104', 31.183, 121.4372, 'sport'),
      p('上海南站', '上海市徐汇区沪闵路9001号', '310104', 31.1546, 121.43, 'station'),
      p('上海交通大学徐汇校区', '上海市徐汇区华山路1954号', '310104', 31.2003, 121.436, 'school'),
      p('人民广场', '上海市黄浦区人民大道', '310101', 31.2317, 121.4753, 'park'),
      p('瑞金医院', '上海市黄浦区瑞金二路197号', '310101', 31.211, 121.468, 'hospital'),
      p('陆家嘴金融中心', '上海市浦东新区世纪大道100号', '310115', 31.2397, 121.4998, 'office'),
      p('虹桥火车站', '上海市闵行区申贵路1500号', '310112', 31.1943, 121.32, 'station'),
    ],
  },
  {
    agency: 'south',
    count: 35,
    stock: 12,
    places: [
      p('天河体育中心', '广东省广州市天河区天河路299号', '440106', 23.137, 113.324, 'sport'),
      p('广州东站', '广东省广州市天河区林和中路', '440106', 23.15, 113.325, 'station'),
      p('花城广场', '广东省广州市天河区珠江新城', '440106', 23.119, 113.327, 'park'),
      p('天河城', '广东省广州市天河区天河路208号', '440106', 23.133, 113.327, 'mall'),
      p('广州塔', '广东省广州市海珠区阅江西路222号', '440105', 23.1066, 113.3245, 'park'),
      p('北京路步行街', '广东省广州市越秀区北京路', '440104', 23.126, 113.27, 'mall'),
      p('广州南站', '广东省广州市番禺区石壁街道', '440113', 22.988, 113.269, 'station'),
      p('白云国际机场', '广东省广州市花都区机场南路', '440114', 23.3924, 113.2988, 'station'),
    ],
  },
  {
    agency: 'sys',
    count: 20,
    stock: 15,
    places: [
      p('国贸地铁站', '北京市朝阳区建国门外大街1号', '110105', 39.9086, 116.46, 'station'),
      p('奥林匹克公园', '北京市朝阳区北辰东路15号', '110105', 40.0, 116.392, 'park'),
      p('三里屯太古里', '北京市朝阳区三里屯路19号', '110105', 39.933, 116.454, 'mall'),
      p('北京站', '北京市东城区毛家湾胡同甲13号', '110101', 39.903, 116.427, 'station'),
      p('王府井大街', '北京市东城区王府井大街', '110101', 39.914, 116.411, 'mall'),
      p('中关村软件园', '北京市海淀区东北旺西路8号', '110108', 40.045, 116.29, 'office'),
      p('北京西站', '北京市丰台区莲花池东路118号', '110106', 39.895, 116.322, 'station'),
    ],
  },
]

/** Where in a place of that kind the device hangs. */
const SPOTS: Record<Kind, string[]> = {
  station: ['候车大厅服务台旁', '进站口安检处', 'A出入口客服中心', '二楼到达层问询处', '换乘通道东侧'],
  mall: ['一楼中庭服务台', 'B1层电梯厅', '三楼母婴室旁', '东门保安亭'],
  office: ['一楼大堂前台', '三楼茶水间旁', '地下车库电梯口', '员工餐厅入口'],
  hospital: ['门诊楼一楼挂号处旁', '急诊科候诊区', '住院部电梯厅'],
  school: ['体育馆北入口', '图书馆一楼大厅', '学生活动中心', '校医院门口'],
  sport: ['北入口检票处', '游泳馆更衣室外', '看台二层通道', '健身中心前台'],
  park: ['东门游客中心', '公共卫生间旁', '景区服务站', '北门保安亭'],
  gov: ['办事大厅导服台', '一楼安检口', '二楼会议中心入口'],
}

/** When a place of that kind is open: weights of closed (0), semi-open (1), fully open (2). */
const OPENING: Record<Kind, [0 | 1 | 2, number][]> = {
  station: [
    [2, 8],
    [1, 2],
  ],
  mall: [
    [1, 6],
    [2, 3],
    [0, 1],
  ],
  office: [
    [1, 6],
    [0, 2],
    [2, 2],
  ],
  hospital: [
    [2, 7],
    [1, 3],
  ],
  school: [
    [1, 6],
    [0, 2],
    [2, 2],
  ],
  sport: [
    [1, 5],
    [2, 4],
    [0, 1],
  ],
  park: [
    [2, 6],
    [1, 4],
  ],
  gov: [
    [1, 7],
    [0, 3],
  ],
}

/** Semi-open hours: days 1 Monday ... 7 Sunday, and one or two periods. */
const HOURS: { open_day: number[]; open_time_period: [string, string][] }[] = [
  { open_day: [1, 2, 3, 4, 5], open_time_period: [['08:30', '17:30']] },
  { open_day: [1, 2, 3, 4, 5, 6, 7], open_time_period: [['06:00', '22:00']] },
  {
    open_day: [1, 2, 3, 4, 5, 6],
    open_time_period: [
      ['08:00', '12:00'],
      ['13:30', '17:30'],
    ],
  },
  { open_day: [6, 7], open_time_period: [['09:00', '18:00']] },
  { open_day: [1, 2, 3, 4, 5, 6, 7], open_time_period: [['10:00', '22:00']] },
]

const CONTACTS = [
  '张伟',
  '王芳',
  '李娜',
  '刘洋',
  '陈静',
  '杨磊',
  '赵强',
  '黄敏',
  '周杰',
  '吴霞',
  '徐鹏',
  '孙丽',
]

/** Serial model codes (characters 2-3) by how common the model is. */
const MODEL_CODES: [string, number][] = [
  ['64', 30],
  ['70', 20],
  ['67', 12],
  ['73', 8],
  ['65', 8],
  ['71', 6],
  ['66', 5],
  ['68', 4],
  ['72', 3],
  ['69', 2],
  ['74', 1],
  ['75', 1],
]
const FIRMWARE = ['V1.0.3', 'V1.1.0', 'V1.2.1', 'V2.0.0']

// ---------------------------------------------------------------------------------------------
// Bands: days from today that fall well inside each band of the data dictionary.

const DAY = 86_400_000
/** Days from today inside each expiry_band (0 expired ... 3 over 6 months), clear of the edges. */
const EXPIRY_DAYS: Record<number, [number, number]> = {
  0: [-300, -2],
  1: [6, 84],
  2: [98, 176],
  3: [196, 1000],
}
/** The same for host_expiry_band (0 expired ... 3 over a year). */
const HOST_DAYS: Record<number, [number, number]> = {
  0: [-200, -2],
  1: [6, 176],
  2: [196, 360],
  3: [380, 2200],
}
/** Battery percentages inside each battery_band (0 exhausted, 1 low, 2 normal). */
const BATTERY: Record<number, [number, number]> = { 0: [0, 5], 1: [6, 9], 2: [30, 100] }

/** Each band's share: mostly healthy, a few in every other band. */
const EXPIRY_MIX: [number, number][] = [
  [3, 70],
  [2, 14],
  [1, 10],
  [0, 6],
]
const BATTERY_MIX: [number | null, number][] = [
  [2, 88],
  [1, 5],
  [0, 4],
  [null, 3],
]

/** Checks the band tables against the data dictionary, so a changed band cannot go unseen. */
function checkBands() {
  const months = (d: number) => d / 30.4375
  for (const [bands, days] of [
    [DATA_DICT.expiry_band, EXPIRY_DAYS],
    [DATA_DICT.host_expiry_band, HOST_DAYS],
  ] as const) {
    for (const b of bands) {
      const [lo, hi] = days[b.value as number]
      for (const d of [lo - 1, hi + 1]) {
        // A day of drift (a seed made yesterday, another time zone) must stay in the band.
        const m = months(d)
        if ((b.min !== undefined && m <= b.min) || (b.max !== undefined && m > b.max)) {
          throw new Error(`demo seed: ${d} days is outside band ${b.value}`)
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------

/** Demo organisations by key, and their members who may look after devices (not general users). */
export type DemoPeople = {
  agencies: Map<string, number>
  /** Members of each organisation with role_type 0 or 1: id and name. */
  managers: Map<string, { id: number; name: string }[]>
}

const iso = (d: Date) => formatDate(d)

/**
 * Rows as one jsonb parameter read back as a record set `x` with these column types: a bulk
 * write is then one statement with one parameter (thousands of bound values are slow on PGlite).
 */
function recordset(rows: object[], columns: Record<string, string>) {
  const defs = Object.entries(columns).map(([name, type]) => `${name} ${type}`)
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${sql.raw(defs.join(', '))})`
}

/** INSERT ... SELECT from `recordset`: the columns named, in one statement. */
export function insertRows<T>(
  tx: DbOrTx,
  table: string,
  columns: Record<string, string>,
  rows: object[],
  tail = sql``,
) {
  const names = sql.raw(Object.keys(columns).join(', '))
  return many<T>(
    tx,
    sql`INSERT INTO ${sql.identifier(table)} (${names}) SELECT ${names} FROM ${recordset(rows, columns)} ${tail}`,
  )
}

/**
 * Seeds the demo devices into the organisations of `people`: the factory devices with their own
 * sealed secrets (the device service's createFactoryDevices), the installations, their change
 * records and inspections, and the two photos in storage. Answers how many were made.
 */
export async function seedDemoDevices(tx: DbOrTx, ctx: AppContext, people: DemoPeople) {
  checkBands()
  const rng = seededRng(20261122)
  const now = ctx.clock.now()
  const daysFrom = (days: number, at = now) => new Date(at.getTime() + days * DAY)
  const [near, far] = await Promise.all([
    ctx.storage.put('demo/aed-cabinet-near.png', closeUpPhoto(), 'image/png'),
    ctx.storage.put('demo/aed-cabinet-far.png', farViewPhoto(), 'image/png'),
  ])

  type Site = {
    agency: string
    place: Place
    registered: Date
    made: Date
    manager: { id: number; name: string }
    sn: string
  }
  const sites: Site[] = []
  const stock: { agency: string; sn: string; made: Date }[] = []
  let serial = 0
  const nextSerial = () => {
    serial++
    const code = rng.weighted(MODEL_CODES)
    return `M${code}${String(24 + (serial % 3))}${String(1000 + serial * 37).padStart(5, '0')}`
  }
  for (const city of CITIES) {
    const managers = people.managers.get(city.agency) ?? []
    if (managers.length === 0) throw new Error(`demo seed: ${city.agency} has no manager`)
    for (let i = 0; i < city.count; i++) {
      // Installed over two years, more of them recently: some in the last week, month, quarter.
      const age = rng.weighted([
        [rng.int(0, 6), 5],
        [rng.int(7, 29), 10],
        [rng.int(30, 89), 15],
        [rng.int(90, 720), 70],
      ] as const)
      const registered = daysFrom(-age - rng.next())
      sites.push({
        agency: city.agency,
        place: city.places[i % city.places.length],
        registered,
        made: daysFrom(-rng.int(10, 200), registered),
        manager: managers[i % managers.length],
        sn: nextSerial(),
      })
    }
    for (let i = 0; i < city.stock; i++) {
      stock.push({ agency: city.agency, sn: nextSerial(), made: daysFrom(-rng.int(1, 300)) })
    }
  }

  // Every device made, with its own secret.
  const ids = await createFactoryDevices(
    tx,
    ctx,
    null,
    [...sites, ...stock].map((d) => ({
      device_sn: d.sn,
      fw_version: rng.pick(FIRMWARE),
      agency_id: people.agencies.get(d.agency)!,
    })),
  )
  const siteIds = ids.slice(0, sites.length)
  const stockIds = ids.slice(sites.length)

  // The installations, their register codes from the service's sequence; status and battery as
  // the devices last reported them: mostly normal; offline, fault and offset by chance; a warning
  // where the battery runs low or a consumable has expired. A few sites hide their abnormal state.
  const codes = await many<{ n: number }>(
    tx,
    sql`SELECT nextval('installation_code_seq') AS n FROM generate_series(1, ${sites.length})`,
  )
  const today = iso(now)
  const inBand = (days: [number, number]) => iso(daysFrom(rng.int(days[0], days[1])))
  let abnormal = 0
  const rows = sites.map((s, i) => {
    const open_state = rng.weighted(OPENING[s.place.kind])
    const hours = open_state === 1 ? rng.pick(HOURS) : { open_day: [], open_time_period: [] }
    const jitter = () => (rng.next() - 0.5) * 0.004
    const battery_expire = inBand(EXPIRY_DAYS[rng.weighted(EXPIRY_MIX)])
    const electrode_sheet_expire = inBand(EXPIRY_DAYS[rng.weighted(EXPIRY_MIX)])
    const band = rng.weighted(BATTERY_MIX)
    const battery = band === null ? null : rng.int(...BATTERY[band])
    const roll = rng.next()
    const expired = battery_expire < today || electrode_sheet_expire < today
    const status =
      roll < 0.07
        ? 4
        : roll < 0.11
          ? 2
          : roll < 0.14
            ? 3
            : (battery !== null && battery <= 9) || (expired && rng.next() < 0.5)
              ? 1
              : 0
    const hidden = status !== 0 && abnormal++ % 9 === 4
    return {
      device: { id: siteIds[i], status, battery, made: s.made },
      site: {
        register_code: `R${iso(s.registered).replaceAll('-', '')}${String(codes[i].n).padStart(6, '0')}`,
        device_id: siteIds[i],
        agency_id: people.agencies.get(s.agency)!,
        location: `${s.place.address} ${s.place.name}`,
        location_desc: rng.pick(SPOTS[s.place.kind]),
        address_code: s.place.code,
        lat: Number((s.place.lat + jitter()).toFixed(6)),
        lon: Number((s.place.lon + jitter()).toFixed(6)),
        device_manager_id: s.manager.id,
        contact: rng.pick(CONTACTS),
        contact_phone: `139${String(rng.int(0, 99_999_999)).padStart(8, '0')}`,
        open_state,
        ...hours,
        xcx_display: rng.next() < 0.92 ? 1 : 0,
        disable_abnormal_sms_notify: rng.next() < 0.05 ? 1 : 0,
        disable_abnormal_display: hidden ? 1 : 0,
        chest_shot_img: near.url,
        long_shot_img: far.url,
        battery_expire,
        electrode_sheet_expire,
        host_expire: inBand(HOST_DAYS[rng.weighted(EXPIRY_MIX)]),
        safety_radius: rng.weighted([
          [null, 8],
          [200, 1],
          [500, 1],
        ] as const),
        registrant: s.manager.id,
        register_time: s.registered,
        updator: s.manager.id,
        update_time: s.registered,
      },
    }
  })
  const installed = await insertRows<{ id: number; device_id: number }>(
    tx,
    'installations',
    {
      register_code: 'text',
      device_id: 'bigint',
      agency_id: 'bigint',
      location: 'text',
      location_desc: 'text',
      address_code: 'text',
      lat: 'float8',
      lon: 'float8',
      device_manager_id: 'bigint',
      contact: 'text',
      contact_phone: 'text',
      open_state: 'smallint',
      open_day: 'smallint[]',
      open_time_period: 'jsonb',
      xcx_display: 'smallint',
      disable_abnormal_sms_notify: 'smallint',
      disable_abnormal_display: 'smallint',
      chest_shot_img: 'text',
      long_shot_img: 'text',
      battery_expire: 'date',
      electrode_sheet_expire: 'date',
      host_expire: 'date',
      safety_radius: 'integer',
      registrant: 'bigint',
      register_time: 'timestamptz',
      updator: 'bigint',
      update_time: 'timestamptz',
    },
    rows.map((r) => r.site),
    sql`RETURNING id, device_id`,
  )
  const siteOf = new Map(installed.map((r) => [r.device_id, r.id]))
  const reported = [
    ...rows.map((r) => ({ ...r.device, installation_id: siteOf.get(r.device.id)! })),
    ...stock.map((s, i) => ({
      id: stockIds[i],
      status: 0,
      battery: null,
      made: s.made,
      installation_id: null,
    })),
  ]
  await tx.execute(sql`
    UPDATE devices d SET installation_id = x.installation_id, status = x.status, battery = x.battery,
                         create_time = x.made, update_time = x.made
    FROM ${recordset(reported, { id: 'bigint', installation_id: 'bigint', status: 'smallint', battery: 'smallint', made: 'timestamptz' })}
    WHERE d.id = x.id`)

  // The change records: the registration, and over the last year routine changes, moves and a
  // few replacements (whose old device went back to stock); inspections every month or three.
  const changes: (typeof installationChanges.$inferInsert)[] = []
  const inspections: (typeof deviceInspections.$inferInsert)[] = []
  const since = (at: Date, days: number) => (at.getTime() > now.getTime() - days * DAY ? at : daysFrom(-days))
  let replaced = 0
  sites.forEach((s, i) => {
    const inst = { id: siteOf.get(siteIds[i])!, device_id: siteIds[i] }
    const by = { updator: s.manager.id, updator_name: s.manager.name }
    changes.push({
      installation_id: inst.id,
      update_type: 0,
      update_field: '注册设备',
      update_time: s.registered,
      ...by,
    })
    const start = since(s.registered, 365).getTime()
    const span = now.getTime() - start
    if (span < DAY) return
    const at = () => new Date(start + rng.next() * span)
    if (rng.next() < 0.25) {
      changes.push({
        installation_id: inst.id,
        update_type: 1,
        update_field: rng.pick([
          '电极片有效期',
          '电池有效期',
          '联系人、联系电话',
          '开放状态、开放日、开放时段',
          '近景图片、远景图片',
        ]),
        update_time: at(),
        ...by,
      })
    }
    if (rng.next() < 0.05) {
      changes.push({
        installation_id: inst.id,
        update_type: 2,
        update_field: '详细位置、坐标',
        update_time: at(),
        ...by,
      })
    }
    if (replaced < 8 && rng.next() < 0.06) {
      changes.push({
        installation_id: inst.id,
        update_type: 3,
        update_field: '设备SN',
        old_device_sn: stock[replaced].sn,
        update_time: at(),
        ...by,
      })
      replaced++
    }
    const every = rng.pick([30, 45, 60, 90])
    for (let t = start + rng.int(1, every) * DAY; t < now.getTime(); t += every * DAY) {
      const ok = rng.next() < 0.92
      inspections.push({
        device_id: inst.device_id!,
        installation_id: inst.id,
        agency_id: people.agencies.get(s.agency)!,
        inspect_status: ok ? 1 : 0,
        process_content: ok
          ? '外观完好，自检通过'
          : rng.pick(['电极片已更换', '电池电量低，已联系更换', '箱门锁损坏，已报修']),
        inspector_name: s.manager.name,
        inspect_time: new Date(t),
        creator: s.manager.id,
        create_time: new Date(t),
      })
    }
  })
  await insertRows(
    tx,
    'installation_changes',
    {
      installation_id: 'bigint',
      update_type: 'smallint',
      update_field: 'text',
      old_device_sn: 'text',
      updator: 'bigint',
      updator_name: 'text',
      update_time: 'timestamptz',
    },
    changes,
  )
  await insertRows(
    tx,
    'device_inspections',
    {
      device_id: 'bigint',
      installation_id: 'bigint',
      agency_id: 'bigint',
      inspect_status: 'smallint',
      process_content: 'text',
      inspector_name: 'text',
      inspect_time: 'timestamptz',
      creator: 'bigint',
      create_time: 'timestamptz',
    },
    inspections,
  )
  return {
    registered: sites.length,
    stock: stock.length,
    changes: changes.length,
    inspections: inspections.length,
  }
}
