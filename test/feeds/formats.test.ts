import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { csvMappingProblems, FeedTooLarge, FeedUnreadable, readFeed } from '@offers/api/read-models';
import {
  FEED_REJECTION_REASONS,
  FEED_REJECTIONS,
  FEED_SOURCE_MESSAGES,
  type FeedCsvMapping,
} from '@offers/api/rules';
import {
  admitadCoupon,
  fixture,
  fixtureStream,
  generatedAdmitadFeed,
  generatedLinkMyDealsFeed,
  readAll,
  readError,
} from './feed-samples.js';

const at = (text: string) => new Date(text);

describe("Admitad's coupons JSON", () => {
  it('reads codes, deals, translations, open-ended and expired rows from the results envelope', async () => {
    const { rows, rejections } = await readAll(fixtureStream('admitad-coupons.json'), 'admitad-json');

    expect(rejections).toEqual([]);
    expect(rows.map((row) => [row.line, row.rowId, row.language])).toEqual([
      [1, '481201', 'en'],
      [2, '481201', 'hi'],
      [3, '481202', 'te'],
      [4, '481305', 'en'],
      [5, '479990', 'en'],
    ]);
    expect(rows[0]).toEqual({
      line: 1,
      rowId: '481201',
      advertiser: { id: '13765', name: 'Myntra', siteUrl: 'https://www.myntra.com/' },
      code: 'ETHNIC20',
      title: 'Flat 20% off on kurtas',
      description: 'Get flat 20% off on ethnic wear & kurtas above ₹999.',
      terms: null,
      // Admitad's times carry no zone: India's.
      startsAt: at('2026-01-01T00:00:00+05:30'),
      endsAt: at('2031-03-31T23:59:59+05:30'),
      ended: false,
      exclusive: true,
      categories: ['Clothing', 'Ethnic Wear'],
      trackingUrl: 'https://ad.admitad.com/g/1e8d1144945a4d0b6e1b16525dc3e8/?i=3',
      language: 'en',
      payout: { value: 20, type: 'percent' },
    });
    expect(rows[1]).toMatchObject({ title: 'कुर्तों पर 20% की छूट', code: 'ETHNIC20', language: 'hi' });
    expect(rows[2]).toMatchObject({ title: 'కుర్తాలపై 20% తగ్గింపు', exclusive: true, categories: ['Clothing'] });
    // An "action" is a deal: its "NOT REQUIRED" is no code. No end date: open-ended.
    expect(rows[3]).toMatchObject({
      code: null,
      endsAt: null,
      exclusive: false,
      advertiser: { id: '20411' },
    });
    // Expired: read to end the coupon, not refused for its past end date.
    expect(rows[4]).toMatchObject({ rowId: '479990', ended: true, payout: { value: 150, type: 'flat' } });
  });

  it('reads a bare array as well as the envelope, after a byte-order mark, with ids of any length', async () => {
    const bare = JSON.stringify([admitadCoupon(1), { ...admitadCoupon(2), id: 0 }]).replace(
      '"id":0',
      '"id":98765432109876543210',
    );
    const { rows } = await readAll(`\uFEFF${bare}`, 'admitad-json');
    expect(rows.map((row) => row.rowId)).toEqual(['500001', '98765432109876543210']);
  });
});

describe("Cuelinks' offers JSON", () => {
  it('reads the offers envelope: HTML reduced to text, categories in every shape, both campaign forms', async () => {
    const { rows, rejections } = await readAll(fixtureStream('cuelinks-offers.json'), 'cuelinks-json');

    expect(rejections).toEqual([]);
    expect(rows).toHaveLength(3);
    const [hotel, sale, delivery] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    // Script and style dropped with their content, tags gone, entities decoded.
    expect(hotel.description).toBe('Book domestic hotels & get extra 10% off. Valid on app & web.');
    expect(hotel).toMatchObject({
      rowId: '906512',
      code: 'MMTHOTEL10',
      advertiser: { id: '5521', name: 'MakeMyTrip', siteUrl: null },
      categories: ['Travel', 'Hotels'],
      startsAt: at('2026-03-01T00:00:00+05:30'),
      endsAt: at('2031-06-30T23:59:59+05:30'),
      payout: { value: 4.5, type: 'percent' },
    });
    expect(sale).toMatchObject({
      code: null,
      endsAt: null,
      categories: ['Beauty', 'Skin Care', 'Makeup'],
      payout: { value: 120, type: 'flat' },
      // A bare day starts at midnight in India.
      startsAt: at('2026-11-20T00:00:00+05:30'),
    });
    expect(delivery).toMatchObject({
      code: null,
      description: '',
      categories: [],
      advertiser: { id: '7702', name: 'Swiggy' },
      // India's day-first date; an end day lasts until its midnight.
      endsAt: at('2031-01-01T00:00:00+05:30'),
      payout: null,
    });
  });
});

describe("LinkMyDeals' CSV", () => {
  it('reads a BOM, CRLF lines, quoted separators and line breaks, deals and suspended rows', async () => {
    const bytes = readFileSync(fixture('linkmydeals.csv'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.includes('\r\n')).toBe(true);

    const { rows, rejections } = await readAll(bytes, 'linkmydeals-csv');

    expect(rejections).toEqual([]);
    // The line each record starts on; the third spans lines 4 and 5.
    expect(rows.map((row) => [row.line, row.rowId])).toEqual([
      [2, '118801'],
      [3, '118802'],
      [4, '118803'],
      [6, '118790'],
    ]);
    expect(rows[0]).toEqual({
      line: 2,
      rowId: '118801',
      advertiser: { id: 'Ajio', name: 'Ajio', siteUrl: 'https://www.ajio.com/' },
      code: 'AJIO50',
      title: "Flat 50% off on men's shirts",
      description: 'Shop shirts from top brands, at half price.',
      terms: 'Valid once per user, on orders above ₹1,499.',
      startsAt: at('2026-01-15T00:00:00+05:30'),
      endsAt: at('2031-02-01T00:00:00+05:30'),
      ended: false,
      exclusive: true,
      categories: ['Clothing', "Men's Fashion"],
      trackingUrl: 'https://linkmydeals.org/s/a1b2c3',
      language: 'en',
      payout: { value: 50, type: 'percent' },
    });
    // A Deal: no code; no smartlink, so the landing page; ₹ written as an entity.
    expect(rows[1]).toMatchObject({
      code: null,
      title: '₹500 off on headphones',
      description: 'Get ₹500 off on select headphones. "Limited" stock.',
      trackingUrl: 'https://www.tatacliq.com/headphones',
      endsAt: null,
      payout: { value: 500, type: 'flat' },
    });
    expect(rows[2]!.description).toBe('Multi-line description, with a comma');
    expect(rows[3]).toMatchObject({ rowId: '118790', ended: true });
  });
});

describe('a mapped CSV', () => {
  const mapping: FeedCsvMapping = {
    separator: ';',
    columns: {
      rowId: 'Offer ID',
      advertiserId: 'Merchant ID',
      advertiserName: 'Merchant',
      advertiserSite: 'website',
      code: 'Voucher',
      title: 'Headline',
      description: 'Details',
      startsAt: 'Valid From',
      endsAt: 'Valid Until',
      status: 'State',
      trackingUrl: 'Link',
      language: 'Lang',
      payout: 'Value',
      payoutType: 'Value Type',
    },
  };

  it("reads the admin's columns with a semicolon, Hindi text and an ended row", async () => {
    const { rows, rejections } = await readAll(fixtureStream('mapped-semicolon.csv'), 'mapped-csv', mapping);

    expect(rejections).toEqual([]);
    expect(rows.map((row) => [row.line, row.rowId, row.code, row.language, row.ended])).toEqual([
      [2, 'INR-7001', 'CROMA1000', 'en', false],
      [3, 'INR-7002', null, 'hi', false],
      [4, 'INR-7003', 'OLD100', 'en', true],
    ]);
    expect(rows[0]).toMatchObject({
      // The separator inside quotes is text.
      title: '₹1,000 off on laptops; limited time',
      advertiser: { id: 'M-310', name: 'Croma', siteUrl: 'https://www.croma.com/' },
      startsAt: at('2026-02-01T00:00:00+05:30'),
      payout: { value: 1000, type: 'flat' },
    });
    expect(rows[1]).toMatchObject({
      title: 'ईयरबड्स पर 40% तक की छूट',
      payout: { value: 40, type: 'percent' },
    });
  });

  it('reads tab-separated files, a Telugu row and exclusive and categories columns', async () => {
    const text =
      'id\tstore\ttitle\tcode\tcats\texcl\tlang\r\n' +
      'T-1\tS-9\tజొమాటో ఆర్డర్లపై ₹100 తగ్గింపు\tZOMATO100\t"Food, Dining"\t1\tte\r\n';
    const { rows } = await readAll(text, 'mapped-csv', {
      separator: '\t',
      columns: {
        rowId: 'id',
        advertiserId: 'store',
        title: 'title',
        code: 'code',
        categories: 'cats',
        exclusive: 'excl',
        language: 'lang',
      },
    });
    expect(rows).toEqual([
      expect.objectContaining({
        title: 'జొమాటో ఆర్డర్లపై ₹100 తగ్గింపు',
        code: 'ZOMATO100',
        categories: ['Food', 'Dining'],
        exclusive: true,
        language: 'te',
        advertiser: { id: 'S-9', name: null, siteUrl: null },
      }),
    ]);
  });

  it('refuses a mapping without the required fields, and a file without the mapped columns', async () => {
    expect(csvMappingProblems({ columns: { rowId: 'id' }, separator: ':' })).toEqual({
      separator: FEED_SOURCE_MESSAGES.separator,
      advertiserId: 'The advertiserId field must be mapped.',
      title: 'The title field must be mapped.',
    });
    expect(
      csvMappingProblems({ columns: { rowId: 'id', advertiserId: 'store', title: 'title', shoeSize: 'x' } }),
    ).toEqual({
      shoeSize: '"shoeSize" is not a feed field.',
    });

    const unusable = await readError('id,title\n1,x\n', 'mapped-csv', {
      columns: { rowId: 'id' },
      separator: ',',
    });
    expect(unusable).toBeInstanceOf(FeedUnreadable);

    const missing = await readError('id,title\n1,x\n', 'mapped-csv', {
      columns: { rowId: 'id', advertiserId: 'Merchant', title: 'title' },
      separator: ',',
    });
    expect(missing).toBeInstanceOf(FeedUnreadable);
    expect(missing.message).toBe('The feed has no column "Merchant" (see the CSV mapping).');
  });
});

describe('rows that are refused', () => {
  it('are reported with their line, id and reason, one for every reason', async () => {
    const row = (n: number, changes: Record<string, unknown>) => ({ ...admitadCoupon(n), ...changes });
    const records = [
      row(1, { id: '' }), // 1
      row(2, {}), // 2 (accepted)
      row(2, {}), // 3: the same id and language again
      row(4, { campaign: { name: 'Nameless' } }), // 4
      row(5, { name: '  ' }), // 5
      row(6, { name: 'x'.repeat(51) }), // 6
      row(7, { description: 'ब'.repeat(201) }), // 7
      row(8, { promocode: 'SAVE 10 NOW' }), // 8
      row(9, { date_end: '2031-02-30 10:00:00' }), // 9
      row(10, { date_start: null, date_end: '2020-05-01 23:59:59' }), // 10
      row(11, { date_start: '2030-06-01 00:00:00', date_end: '2030-05-01 00:00:00' }), // 11
      row(12, { goto_link: 'javascript:alert(1)' }), // 12
      row(13, { language: 'ru' }), // 13
      42, // 14: not an object
      row(15, { description: 'a'.repeat(70_000) }), // 15
      row(16, { nested: [[[[[[[[[[1]]]]]]]]]] }), // 16
      row(2, { language: 'hi' }), // 17: a translation may share the id (accepted)
    ];
    const { rows, rejections } = await readAll(JSON.stringify({ results: records }), 'admitad-json');

    expect(rows.map((accepted) => accepted.line)).toEqual([2, 17]);
    expect(rejections.map(({ line, rowId, reason }) => [line, rowId, reason])).toEqual([
      [1, null, 'missing-row-id'],
      [3, '500002', 'duplicate-row-id'],
      [4, '500004', 'missing-advertiser'],
      [5, '500005', 'missing-title'],
      [6, '500006', 'title-too-long'],
      [7, '500007', 'description-too-long'],
      [8, '500008', 'bad-code'],
      [9, '500009', 'bad-date'],
      [10, '500010', 'ended-in-past'],
      [11, '500011', 'end-before-start'],
      [12, '500012', 'bad-tracking-url'],
      [13, '500013', 'unknown-language'],
      [14, null, 'not-a-record'],
      [15, null, 'record-too-large'],
      [16, null, 'record-too-large'],
    ]);
    expect(new Set(rejections.map((rejection) => rejection.reason))).toEqual(new Set(FEED_REJECTION_REASONS));
    for (const rejection of rejections) expect(rejection.message).toBe(FEED_REJECTIONS[rejection.reason]);
    expect(FEED_REJECTIONS['title-too-long']).toBe('Title must be at most 50 characters.');
  });

  it('in a CSV as in JSON, and an ended row is never refused for its fields', async () => {
    const text = [
      'lmd_id,store,title,code,status,end_date,smartlink',
      '1,Ajio,Fine,GOOD10,new,2031-01-01,https://l.example/1',
      '2,,No store,GOOD10,new,,',
      '3,Ajio,Bad code,"A B",new,,',
      '4,Ajio,Bad link,GOOD10,new,,ftp://files.example/x',
      '5,Ajio,,,suspended,2020-01-01,',
      '1,Ajio,Again,GOOD10,updated,,',
    ].join('\n');
    const { rows, rejections } = await readAll(text, 'linkmydeals-csv');
    expect(rows.map((row) => [row.line, row.rowId, row.ended])).toEqual([
      [2, '1', false],
      [6, '5', true],
    ]);
    expect(rejections.map(({ line, reason }) => [line, reason])).toEqual([
      [3, 'missing-advertiser'],
      [4, 'bad-code'],
      [5, 'bad-tracking-url'],
      [7, 'duplicate-row-id'],
    ]);
  });
});

describe('a body that is not the format', () => {
  it.each([
    ['not JSON at all', 'admitad-json', '<html><body>Maintenance</body></html>'],
    ['JSON cut off', 'admitad-json', '{"results":[{"id":1,'],
    ['the wrong envelope', 'admitad-json', '{"offers":[]}'],
    ['a list that is not one', 'admitad-json', '{"results":{"id":1}}'],
    ['a scalar', 'cuelinks-json', '"offers"'],
    ['empty', 'cuelinks-json', ''],
    ['JSON to a CSV format', 'linkmydeals-csv', JSON.stringify([admitadCoupon(1)])],
    ['no header row', 'linkmydeals-csv', ''],
    ['a quote left open', 'linkmydeals-csv', `lmd_id,store,title\n1,Ajio,"open${'x'.repeat(70_000)}\n`],
    ['broken gzip', 'admitad-json', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02, 0x03])],
  ] as const)('throws FeedUnreadable: %s', async (_name, format, body) => {
    const error = await readError(body, format);
    expect(error).toBeInstanceOf(FeedUnreadable);
  });
});

describe('gzip and the size limit', () => {
  it('reads a gzip file by its first bytes', async () => {
    const plain = await readAll(fixtureStream('admitad-coupons.json'), 'admitad-json');
    const zipped = await readAll(gzipSync(readFileSync(fixture('admitad-coupons.json'))), 'admitad-json');
    expect(zipped).toEqual(plain);
  });

  it('stops a feed larger than the limit, counted after decompression', async () => {
    const plain = await readError(readFileSync(fixture('admitad-coupons.json')), 'admitad-json', undefined, {
      maxBytes: 1024,
    });
    expect(plain).toBeInstanceOf(FeedTooLarge);

    // 64 MB of spaces inside valid JSON squeezed into ~64 KB: a bomb stopped at 1 MB.
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"results":['), Buffer.alloc(64 * 1024 * 1024, ' ')]));
    expect(bomb.length).toBeLessThan(200 * 1024);
    const error = await readError(bomb, 'admitad-json', undefined, { maxBytes: 1024 * 1024 });
    expect(error).toBeInstanceOf(FeedTooLarge);
    expect(error.message).toBe('The feed is larger than 1 MB.');
  });
});

describe('a feed of 100,000 rows', () => {
  it.each([
    ['Admitad JSON', 'admitad-json', generatedAdmitadFeed],
    ['LinkMyDeals CSV', 'linkmydeals-csv', generatedLinkMyDealsFeed],
  ] as const)(
    'is read as it streams (%s)',
    async (_name, format, generate) => {
      const feed = generate(100_000);
      let madeAtFirstRow = -1;
      let read = 0;
      let lead = 0;
      for await (const entry of readFeed(feed.stream, format)) {
        if ('reason' in entry) throw new Error(`row ${entry.line} refused: ${entry.reason}`);
        if (read === 0) madeAtFirstRow = feed.made();
        read += 1;
        lead = Math.max(lead, feed.made() - read);
      }
      expect(read).toBe(100_000);
      // The first row came out while the source had made only a few of its rows.
      expect(madeAtFirstRow).toBeGreaterThan(0);
      expect(madeAtFirstRow).toBeLessThan(5_000);
      // Throughout, the source was never far ahead of the rows read: the feed was never held whole.
      // (Counted in rows rather than heap bytes, which other work in the process and the
      // collector's timing move.)
      expect(lead).toBeLessThan(10_000);
      // Seconds alone, but minutes on a machine whose cores other test runs share.
    },
    240_000,
  );
});
