import type { DataSource } from 'typeorm';
import { type ContentKind, SaveContent, saveContent } from '../content/commands/content-commands.js';
import {
  BANNERS as BANNER_KIND,
  BEST_OFFER_BANNERS,
  FLASH_TEXTS,
  HERO_IMAGES,
  SEASONAL_OFFERS,
} from '../content/content-kinds.js';
import { hasHeroImages } from '../content/queries/home-content.js';
import { runInTransaction, type Transaction } from '../infrastructure/events/unit-of-work.js';
import { type BannerPosition, CONTENT_DEFAULTS } from '../rules/content.js';
import type { Seed } from './seeds.js';

/** A flat demo picture with a headline: enough to see the layout, small enough to load fast. */
export async function demoPicture(
  width: number,
  height: number,
  headline: string,
  hue: number,
): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const escaped = headline.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},75%,60%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <text x="50%" y="50%" dominant-baseline="middle" text-anchor="middle" font-family="sans-serif"
      font-weight="700" font-size="${Math.round(height / 6)}" fill="#fff">${escaped}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 70 }).toBuffer();
}

/** A store's logo: its initials on a tile of its colour. */
export async function demoLogo(name: string, hue: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const initials = name
    .split(/\s+/)
    .filter((word) => /^[A-Za-z]/.test(word))
    .slice(0, 2)
    .map((word) => word[0])
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
    <rect width="256" height="256" rx="48" fill="hsl(${hue},55%,38%)"/>
    <circle cx="200" cy="56" r="22" fill="hsl(${(hue + 40) % 360},80%,70%)"/>
    <text x="50%" y="54%" dominant-baseline="middle" text-anchor="middle" font-family="sans-serif"
      font-weight="700" font-size="${initials.length > 1 ? 104 : 128}" fill="#fff">${initials}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 85 }).toBuffer();
}

// Pictures of the demo home page ---------------------------------------------------------------
// Drawn without words: the site writes each title over or under its picture as text, in the
// visitor's language and at a size that reads on a phone and on a desktop. The objects keep to
// the right of centre, so a title on the left or at the bottom stays on a calm background, and
// the middle holds something when a phone crops the sides.

/** One object drawn in a 100 x 100 box, in the given colours. */
type Motif = (main: string, accent: string) => string;

const MOTIFS = {
  bottle: (main, accent) => `
    <rect x="30" y="34" width="40" height="62" rx="10" fill="${main}"/>
    <rect x="40" y="18" width="20" height="18" rx="3" fill="${accent}"/>
    <rect x="44" y="4" width="12" height="16" rx="5" fill="${main}" opacity="0.8"/>
    <rect x="36" y="52" width="28" height="24" rx="4" fill="#fff" opacity="0.85"/>
    <rect x="34" y="38" width="6" height="52" rx="3" fill="#fff" opacity="0.25"/>`,
  lipstick: (main, accent) => `
    <rect x="32" y="52" width="36" height="46" rx="4" fill="${accent}"/>
    <rect x="36" y="40" width="28" height="14" rx="2" fill="#f3d27a"/>
    <path d="M39 40 V14 L61 24 V40 Z" fill="${main}"/>
    <rect x="36" y="56" width="5" height="38" rx="2" fill="#fff" opacity="0.3"/>`,
  compact: (main, accent) => `
    <circle cx="50" cy="54" r="40" fill="${accent}"/>
    <circle cx="50" cy="54" r="31" fill="${main}"/>
    <circle cx="40" cy="44" r="9" fill="#fff" opacity="0.35"/>`,
  jar: (main, accent) => `
    <rect x="20" y="30" width="60" height="12" rx="4" fill="${accent}"/>
    <rect x="16" y="40" width="68" height="50" rx="12" fill="${main}"/>
    <rect x="28" y="54" width="44" height="20" rx="4" fill="#fff" opacity="0.85"/>`,
  leaf: (main) => `
    <path d="M50 96 C12 70 14 26 50 4 C86 26 88 70 50 96 Z" fill="${main}"/>
    <path d="M50 92 V12" stroke="#fff" stroke-width="3" opacity="0.5"/>`,
  bag: (main, accent) => `
    <path d="M34 30 C34 10 66 10 66 30" fill="none" stroke="${accent}" stroke-width="6"/>
    <rect x="18" y="28" width="64" height="68" rx="8" fill="${main}"/>
    <rect x="18" y="28" width="64" height="12" rx="6" fill="${accent}" opacity="0.6"/>`,
  tag: (main, accent) => `
    <path d="M10 40 L40 10 H88 V58 L58 88 Z" fill="${main}" transform="rotate(8 50 50)"/>
    <circle cx="74" cy="26" r="7" fill="#fff"/>
    <path d="M34 54 L46 66 L68 40" fill="none" stroke="${accent}" stroke-width="8" stroke-linecap="round"/>`,
  gift: (main, accent) => `
    <rect x="14" y="40" width="72" height="56" rx="4" fill="${main}"/>
    <rect x="10" y="28" width="80" height="16" rx="3" fill="${main}" opacity="0.85"/>
    <rect x="44" y="28" width="12" height="68" fill="${accent}"/>
    <path d="M50 28 C34 6 18 22 50 28 C82 22 66 6 50 28 Z" fill="${accent}"/>`,
  coin: (main, accent) => `
    <circle cx="50" cy="50" r="44" fill="${accent}"/>
    <circle cx="50" cy="50" r="34" fill="${main}"/>
    <path d="M36 34 H64 M36 44 H64 M44 34 C62 34 62 56 44 56 L62 74" fill="none" stroke="${accent}" stroke-width="6" stroke-linecap="round"/>`,
  glasses: (main, accent) => `
    <circle cx="28" cy="54" r="20" fill="${main}" stroke="${accent}" stroke-width="5"/>
    <circle cx="72" cy="54" r="20" fill="${main}" stroke="${accent}" stroke-width="5"/>
    <path d="M46 50 Q50 44 54 50" fill="none" stroke="${accent}" stroke-width="5"/>`,
  diya: (main, accent) => `
    <path d="M50 8 C62 30 60 44 50 48 C40 44 38 30 50 8 Z" fill="#ffd54a"/>
    <path d="M50 24 C55 36 54 42 50 44 C46 42 45 36 50 24 Z" fill="#fff3c4"/>
    <path d="M8 56 H92 C88 82 70 94 50 94 C30 94 12 82 8 56 Z" fill="${main}"/>
    <path d="M20 66 H80" stroke="${accent}" stroke-width="5" stroke-linecap="round"/>`,
  flower: (main, accent) => `
    ${[0, 45, 90, 135, 180, 225, 270, 315]
      .map(
        (turn) =>
          `<ellipse cx="50" cy="24" rx="13" ry="22" fill="${main}" transform="rotate(${turn} 50 50)"/>`,
      )
      .join('')}
    <circle cx="50" cy="50" r="14" fill="${accent}"/>`,
  snowflake: (main) => `
    <g stroke="${main}" stroke-width="6" stroke-linecap="round">
      ${[0, 60, 120]
        .map(
          (turn) => `<g transform="rotate(${turn} 50 50)"><path d="M50 6 V94"/>
          <path d="M50 22 L38 12 M50 22 L62 12 M50 78 L38 88 M50 78 L62 88"/></g>`,
        )
        .join('')}
    </g>`,
  ring: (main, accent) => `
    <circle cx="50" cy="58" r="32" fill="none" stroke="${main}" stroke-width="10"/>
    <path d="M38 22 L50 6 L62 22 L50 32 Z" fill="${accent}"/>`,
  spark: (main) => `
    <g stroke="${main}" stroke-width="5" stroke-linecap="round">
      ${[0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330]
        .map((turn) => `<path d="M50 10 V30" transform="rotate(${turn} 50 50)"/>`)
        .join('')}
    </g>
    <circle cx="50" cy="50" r="8" fill="${main}"/>`,
  star: (main) => `
    <path d="M50 4 L62 38 L98 38 L69 59 L80 94 L50 73 L20 94 L31 59 L2 38 L38 38 Z" fill="${main}"/>`,
} satisfies Record<string, Motif>;

type MotifName = keyof typeof MOTIFS;

interface Scene {
  /** Two background colours, dark enough for white text on the left or at the bottom. */
  colours: [string, string];
  /** Each object: its motif, centre (fractions of the width and height), size (of the height), tilt. */
  objects: Array<{
    motif: MotifName;
    x: number;
    y: number;
    size: number;
    turn?: number;
    main: string;
    accent: string;
  }>;
}

/** A scene drawn as a picture: gradient, soft lights, objects; WebP, small enough for a first screen. */
export async function demoScene(width: number, height: number, scene: Scene): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const [from, to] = scene.colours;
  const lights = [0.62, 0.78, 0.9, 0.7]
    .map(
      (x, index) =>
        `<circle cx="${x * width}" cy="${[0.2, 0.85, 0.3, 0.55][index]! * height}" r="${[0.5, 0.35, 0.25, 0.6][index]! * height}" fill="#fff" opacity="0.08"/>`,
    )
    .join('');
  const objects = scene.objects
    .map(({ motif, x, y, size, turn = 0, main, accent }) => {
      const side = size * height;
      const scale = side / 100;
      return `<g transform="translate(${x * width - side / 2} ${y * height - side / 2}) rotate(${turn} ${side / 2} ${side / 2}) scale(${scale})">${MOTIFS[motif](main, accent)}</g>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${lights}${objects}
  </svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 72 }).toBuffer();
}

/** A text in English, Hindi and Telugu. */
type Texts = [en: string, hi: string, te: string];

interface DemoPicture {
  title: Texts;
  altText: Texts;
  scene: Scene;
}

const HEROES: Array<DemoPicture & { site: string }> = [
  {
    site: 'glowbasket.in/festive',
    title: [
      'Festive glow: up to 60% off skin care',
      'त्योहारी निखार: स्किन केयर पर 60% तक की छूट',
      'పండుగ మెరుపు: స్కిన్ కేర్‌పై 60% వరకు తగ్గింపు',
    ],
    altText: [
      'Face serum bottles among glowing diyas',
      'जगमगाते दीयों के बीच फ़ेस सीरम की बोतलें',
      'వెలుగుతున్న దీపాల మధ్య ఫేస్ సీరం సీసాలు',
    ],
    scene: {
      colours: ['#5b1033', '#c2410c'],
      objects: [
        { motif: 'bottle', x: 0.62, y: 0.52, size: 0.72, turn: -8, main: '#f59e0b', accent: '#7c2d12' },
        { motif: 'bottle', x: 0.72, y: 0.56, size: 0.6, turn: 6, main: '#fbbf24', accent: '#9a3412' },
        { motif: 'diya', x: 0.84, y: 0.66, size: 0.4, main: '#b45309', accent: '#fde68a' },
        { motif: 'diya', x: 0.52, y: 0.76, size: 0.3, main: '#92400e', accent: '#fde68a' },
        { motif: 'spark', x: 0.9, y: 0.24, size: 0.3, main: '#fde68a', accent: '#fff' },
      ],
    },
  },
  {
    site: 'colorbar.example.in/offers',
    title: ['Makeup must-haves from ₹199', '₹199 से शुरू, मेकअप की ज़रूरी चीज़ें', '₹199 నుంచే మేకప్ తప్పనిసరి వస్తువులు'],
    altText: [
      'Lipsticks and a powder compact on a pink background',
      'गुलाबी पृष्ठभूमि पर लिपस्टिक और पाउडर कॉम्पैक्ट',
      'గులాబీ నేపథ్యంపై లిప్‌స్టిక్‌లు, పౌడర్ కాంపాక్ట్',
    ],
    scene: {
      colours: ['#4a0d3a', '#be185d'],
      objects: [
        { motif: 'compact', x: 0.74, y: 0.5, size: 0.66, main: '#f9a8d4', accent: '#831843' },
        { motif: 'lipstick', x: 0.58, y: 0.55, size: 0.68, turn: -12, main: '#e11d48', accent: '#1f2937' },
        { motif: 'lipstick', x: 0.64, y: 0.6, size: 0.56, turn: 10, main: '#9f1239', accent: '#374151' },
        { motif: 'lipstick', x: 0.88, y: 0.58, size: 0.6, turn: 16, main: '#fb7185', accent: '#1f2937' },
        { motif: 'star', x: 0.93, y: 0.2, size: 0.16, main: '#fbcfe8', accent: '#fff' },
      ],
    },
  },
  {
    site: 'tressco.example.in/b1g1',
    title: [
      'Hair care week: buy 1 get 1 free',
      'हेयर केयर सप्ताह: एक खरीदें, एक मुफ़्त पाएँ',
      'హెయిర్ కేర్ వారం: ఒకటి కొంటే ఒకటి ఉచితం',
    ],
    altText: [
      'Shampoo and conditioner bottles with green leaves',
      'हरी पत्तियों के साथ शैम्पू और कंडीशनर की बोतलें',
      'పచ్చని ఆకులతో షాంపూ, కండిషనర్ సీసాలు',
    ],
    scene: {
      colours: ['#073b3a', '#0f766e'],
      objects: [
        { motif: 'leaf', x: 0.55, y: 0.45, size: 0.7, turn: -30, main: '#22c55e', accent: '#fff' },
        { motif: 'leaf', x: 0.86, y: 0.42, size: 0.62, turn: 28, main: '#16a34a', accent: '#fff' },
        { motif: 'bottle', x: 0.66, y: 0.55, size: 0.76, main: '#ccfbf1', accent: '#115e59' },
        { motif: 'bottle', x: 0.76, y: 0.58, size: 0.68, turn: 4, main: '#99f6e4', accent: '#134e4a' },
      ],
    },
  },
];

const BANNERS: Record<BannerPosition, DemoPicture & { site: string }> = {
  cat: {
    site: 'dailymart.example.in/essentials',
    title: [
      'Everyday essentials at lower prices',
      'रोज़मर्रा की ज़रूरतें अब कम दाम में',
      'రోజువారీ అవసరాలు ఇప్పుడు తక్కువ ధరకే',
    ],
    altText: [
      'A shopping bag full of household products',
      'घरेलू सामान से भरा शॉपिंग बैग',
      'ఇంటి సరుకులతో నిండిన షాపింగ్ బ్యాగ్',
    ],
    scene: {
      colours: ['#1e3a8a', '#0369a1'],
      objects: [
        { motif: 'bag', x: 0.72, y: 0.55, size: 0.78, main: '#fbbf24', accent: '#b45309' },
        { motif: 'jar', x: 0.86, y: 0.66, size: 0.46, main: '#f8fafc', accent: '#0ea5e9' },
        { motif: 'bottle', x: 0.6, y: 0.64, size: 0.52, turn: -10, main: '#a5f3fc', accent: '#0e7490' },
      ],
    },
  },
  Tc: {
    site: 'glowbasket.in/top',
    title: [
      "Today's top coupons, checked by shoppers",
      'आज के टॉप कूपन, खरीदारों ने जाँचे',
      'ఈరోజు టాప్ కూపన్లు, కొనుగోలుదారులు సరిచూసినవి',
    ],
    altText: [
      'Discount tags with a green check mark',
      'हरे सही के निशान वाले डिस्काउंट टैग',
      'ఆకుపచ్చ టిక్ గుర్తుతో డిస్కౌంట్ ట్యాగ్‌లు',
    ],
    scene: {
      colours: ['#312e81', '#6d28d9'],
      objects: [
        { motif: 'tag', x: 0.7, y: 0.5, size: 0.74, turn: -6, main: '#fde68a', accent: '#15803d' },
        { motif: 'tag', x: 0.86, y: 0.58, size: 0.56, turn: 14, main: '#fbcfe8', accent: '#15803d' },
        { motif: 'star', x: 0.58, y: 0.28, size: 0.18, main: '#fde68a', accent: '#fff' },
      ],
    },
  },
  Bo: {
    site: 'stylekart.example.in/best',
    title: ['Best offers on fashion and beauty', 'फ़ैशन और ब्यूटी पर सबसे अच्छे ऑफ़र', 'ఫ్యాషన్, బ్యూటీపై ఉత్తమ ఆఫర్లు'],
    altText: [
      'A handbag, sunglasses and a lipstick',
      'एक हैंडबैग, धूप का चश्मा और लिपस्टिक',
      'హ్యాండ్‌బ్యాగ్, సన్‌గ్లాసెస్, లిప్‌స్టిక్',
    ],
    scene: {
      colours: ['#3f0d12', '#9d174d'],
      objects: [
        { motif: 'bag', x: 0.7, y: 0.55, size: 0.76, main: '#f472b6', accent: '#500724' },
        { motif: 'glasses', x: 0.86, y: 0.34, size: 0.44, main: '#1f2937', accent: '#fbcfe8' },
        { motif: 'lipstick', x: 0.88, y: 0.7, size: 0.44, turn: 20, main: '#e11d48', accent: '#111827' },
      ],
    },
  },
  left: {
    site: 'glowbasket.in/cashback',
    title: [
      'Extra 10% cashback on your first order',
      'पहले ऑर्डर पर 10% अतिरिक्त कैशबैक',
      'మొదటి ఆర్డర్‌పై అదనంగా 10% క్యాష్‌బ్యాక్',
    ],
    altText: ['Gold coins with the rupee sign', 'रुपये के निशान वाले सोने के सिक्के', 'రూపాయి గుర్తు ఉన్న బంగారు నాణేలు'],
    scene: {
      colours: ['#14532d', '#15803d'],
      objects: [
        { motif: 'coin', x: 0.72, y: 0.48, size: 0.7, main: '#f59e0b', accent: '#fde68a' },
        { motif: 'coin', x: 0.86, y: 0.66, size: 0.5, turn: 12, main: '#d97706', accent: '#fef3c7' },
        { motif: 'spark', x: 0.58, y: 0.3, size: 0.26, main: '#fef9c3', accent: '#fff' },
      ],
    },
  },
  right: {
    site: 'giftbox.example.in/celebrate',
    title: ['Gift boxes for every celebration', 'हर जश्न के लिए गिफ़्ट बॉक्स', 'ప్రతి వేడుకకు గిఫ్ట్ బాక్సులు'],
    altText: ['Wrapped gift boxes with ribbons', 'रिबन से सजे गिफ़्ट बॉक्स', 'రిబ్బన్లతో చుట్టిన గిఫ్ట్ బాక్సులు'],
    scene: {
      colours: ['#7c2d12', '#b91c1c'],
      objects: [
        { motif: 'gift', x: 0.7, y: 0.56, size: 0.72, main: '#fde68a', accent: '#be123c' },
        { motif: 'gift', x: 0.86, y: 0.66, size: 0.5, turn: 8, main: '#fbcfe8', accent: '#047857' },
        { motif: 'star', x: 0.58, y: 0.3, size: 0.16, main: '#fde68a', accent: '#fff' },
      ],
    },
  },
};

const SEASONAL: DemoPicture[] = [
  {
    title: ['Diwali sale', 'दिवाली सेल', 'దీపావళి సేల్'],
    altText: ['Lit diyas and marigold flowers', 'जलते दीये और गेंदे के फूल', 'వెలిగించిన దీపాలు, బంతి పూలు'],
    scene: {
      colours: ['#431407', '#9a3412'],
      objects: [
        { motif: 'diya', x: 0.5, y: 0.58, size: 0.5, main: '#b45309', accent: '#fde68a' },
        { motif: 'diya', x: 0.24, y: 0.7, size: 0.32, main: '#92400e', accent: '#fde68a' },
        { motif: 'flower', x: 0.78, y: 0.66, size: 0.36, main: '#f59e0b', accent: '#c2410c' },
        { motif: 'flower', x: 0.84, y: 0.28, size: 0.26, main: '#fbbf24', accent: '#c2410c' },
      ],
    },
  },
  {
    title: ['Winter care', 'सर्दियों की देखभाल', 'చలికాలపు సంరక్షణ'],
    altText: [
      'Snowflakes over a jar of moisturiser',
      'मॉइस्चराइज़र के डिब्बे पर बर्फ़ के फाहे',
      'మాయిశ్చరైజర్ డబ్బాపై మంచు రేకులు',
    ],
    scene: {
      colours: ['#0c4a6e', '#0284c7'],
      objects: [
        { motif: 'jar', x: 0.5, y: 0.62, size: 0.5, main: '#f0f9ff', accent: '#38bdf8' },
        { motif: 'snowflake', x: 0.22, y: 0.3, size: 0.3, main: '#e0f2fe', accent: '#fff' },
        { motif: 'snowflake', x: 0.8, y: 0.26, size: 0.22, main: '#bae6fd', accent: '#fff' },
        { motif: 'snowflake', x: 0.82, y: 0.7, size: 0.18, main: '#e0f2fe', accent: '#fff' },
      ],
    },
  },
  {
    title: ['Wedding season', 'शादियों का मौसम', 'పెళ్లిళ్ల సీజన్'],
    altText: [
      'Two gold rings among rose petals',
      'गुलाब की पंखुड़ियों के बीच दो सोने की अंगूठियाँ',
      'గులాబీ రేకుల మధ్య రెండు బంగారు ఉంగరాలు',
    ],
    scene: {
      colours: ['#500724', '#be123c'],
      objects: [
        { motif: 'ring', x: 0.42, y: 0.56, size: 0.46, turn: -10, main: '#fbbf24', accent: '#e0f2fe' },
        { motif: 'ring', x: 0.58, y: 0.58, size: 0.42, turn: 12, main: '#f59e0b', accent: '#fce7f3' },
        { motif: 'flower', x: 0.18, y: 0.3, size: 0.24, main: '#fda4af', accent: '#9f1239' },
        { motif: 'flower', x: 0.84, y: 0.72, size: 0.3, main: '#fecdd3', accent: '#9f1239' },
      ],
    },
  },
  {
    title: ['New Year deals', 'नए साल के ऑफ़र', 'కొత్త సంవత్సరం ఆఫర్లు'],
    altText: ['Fireworks in a night sky', 'रात के आसमान में आतिशबाज़ी', 'రాత్రి ఆకాశంలో బాణసంచా'],
    scene: {
      colours: ['#0f172a', '#312e81'],
      objects: [
        { motif: 'spark', x: 0.3, y: 0.36, size: 0.44, main: '#fde047', accent: '#fff' },
        { motif: 'spark', x: 0.66, y: 0.3, size: 0.36, main: '#f472b6', accent: '#fff' },
        { motif: 'spark', x: 0.52, y: 0.7, size: 0.3, main: '#5eead4', accent: '#fff' },
        { motif: 'star', x: 0.86, y: 0.72, size: 0.14, main: '#fde68a', accent: '#fff' },
      ],
    },
  },
];

const FLASH_TEXT: Texts = [
  CONTENT_DEFAULTS.flashText,
  'नए सीज़न के स्टाइल पर 50% तक की छूट, सिर्फ़ सीमित समय के लिए',
  'కొత్త సీజన్ స్టైల్స్‌పై 50% వరకు తగ్గింపు, పరిమిత సమయం మాత్రమే',
];

const BEST_OFFER: { name: Texts; scene: Scene } = {
  name: ['Best offers of the day', 'आज के सबसे अच्छे ऑफ़र', 'ఈరోజు ఉత్తమ ఆఫర్లు'],
  scene: {
    colours: ['#3b0764', '#7e22ce'],
    objects: [
      { motif: 'star', x: 0.7, y: 0.5, size: 0.6, main: '#fde68a', accent: '#fff' },
      { motif: 'tag', x: 0.82, y: 0.52, size: 0.7, turn: 10, main: '#f0abfc', accent: '#15803d' },
      { motif: 'star', x: 0.92, y: 0.3, size: 0.3, main: '#fef3c7', accent: '#fff' },
    ],
  },
};

/** What the demo home page shows, for the tests that look for it. */
export const DEMO_HOME = {
  heroes: HEROES,
  banners: BANNERS,
  seasonalOffers: SEASONAL,
  flashText: FLASH_TEXT,
  bestOffer: BEST_OFFER,
};

/** A picture's texts in the three languages, as the content forms name them. */
function pictureTexts({ title, altText }: DemoPicture) {
  const [titleEn, titleHi, titleTe] = title;
  const [altEn, altHi, altTe] = altText;
  return { title: titleEn, titleHi, titleTe, altText: altEn, altTextHi: altHi, altTextTe: altTe };
}

/** Saves one item as an admin's upload does (SaveContent, with its ContentSaved), its scene as the image. */
async function saveScene(
  tx: Transaction,
  kind: ContentKind,
  id: number | undefined,
  values: Record<string, unknown>,
  picture: { width: number; height: number; scene: Scene },
) {
  const bytes = await demoScene(picture.width, picture.height, picture.scene);
  return saveContent(tx, new SaveContent(kind, id, values, { bytes, field: 'image' }));
}

/**
 * The home page of the demo marketplace: three hero slides, a banner for every position, four
 * seasonal offers, the flash text and a best-offer banner, every text in English, Hindi and
 * Telugu. Saved through the content commands' work, with their events, so the workers build the
 * public document as they would for an admin's uploads. Skipped once a hero slide exists.
 */
export const demoContentSeed: Seed = {
  name: 'home-page content',
  async run(dataSource: DataSource) {
    return runInTransaction(dataSource, async (tx) => {
      // Two seeds at once (two starts) take turns; the second finds the content made.
      await tx.manager.query("SELECT pg_advisory_xact_lock(hashtext('seed:content'))");
      if (await hasHeroImages(tx.manager)) return undefined;
      let saved = 0;
      for (const [index, hero] of HEROES.entries()) {
        await saveScene(
          tx,
          HERO_IMAGES,
          undefined,
          { merchantUrl: `https://${hero.site}`, sortOrder: index, ...pictureTexts(hero) },
          { width: 1600, height: 500, scene: hero.scene },
        );
        saved += 1;
      }
      for (const [position, banner] of Object.entries(BANNERS)) {
        await saveScene(
          tx,
          BANNER_KIND,
          undefined,
          { position, merchantUrl: `https://${banner.site}`, ...pictureTexts(banner) },
          { width: 1200, height: 450, scene: banner.scene },
        );
        saved += 1;
      }
      for (const [index, offer] of SEASONAL.entries()) {
        const slot = index + 1;
        await saveScene(
          tx,
          SEASONAL_OFFERS,
          slot,
          { merchantUrl: `https://glowbasket.in/season/${slot}`, ...pictureTexts(offer) },
          { width: 600, height: 400, scene: offer.scene },
        );
        saved += 1;
      }
      const [text, textHi, textTe] = FLASH_TEXT;
      await saveContent(
        tx,
        new SaveContent(FLASH_TEXTS, undefined, {
          text,
          textHi,
          textTe,
          contentType: CONTENT_DEFAULTS.flashContentType,
          position: CONTENT_DEFAULTS.flashPosition,
          merchantUrl: 'https://glowbasket.in/sale',
        }),
      );
      saved += 1;
      const [name, nameHi, nameTe] = BEST_OFFER.name;
      await saveScene(
        tx,
        BEST_OFFER_BANNERS,
        undefined,
        {
          name,
          nameHi,
          nameTe,
          type: CONTENT_DEFAULTS.bestOfferBanner,
          frame: CONTENT_DEFAULTS.bestOfferBanner,
          merchantUrl: 'https://glowbasket.in/best',
        },
        { width: 1200, height: 300, scene: BEST_OFFER.scene },
      );
      saved += 1;
      return `${saved} items: heroes, banners, seasonal offers, flash text, best-offer banner`;
    });
  },
};
