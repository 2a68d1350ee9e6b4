import { Controller, Delete, Get, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type DataSource, ILike } from 'typeorm';
import { MerchantScope } from '../identity/merchant-scope.js';
import { CurrentMerchantId } from '../identity/sessions/access.js';
import { readForm, validateForm } from '../infrastructure/http/forms.js';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { listAnswer } from '../infrastructure/http/react-admin.js';
import { takeTextImage } from '../media/image-sources.js';
import { imageLimit } from '../media/images.js';
import { SubmitCoupon, UpdateCoupon, WithdrawCoupon } from './commands/submission.js';
import { CouponChangesDto, CouponFormDto } from './dto/coupon-form.dto.js';
import { Coupon } from './entities/coupon.entity.js';
import { couponPage, couponRecords, couponRecordsPage } from './queries/coupon-records.js';
import { statusFilter } from './queries/coupon-status.js';
import { MERCHANT_SLOT_SORTS, slotPage } from './queries/slots.js';

const SORTABLE = ['id', 'title', 'status', 'submittedAt', 'expiryDate'] as const;
/** Older clients send their merchant id in the form; the session decides it, so it is dropped. */
const IGNORED = ['merchantId'];

/** A merchant's own coupons (react-admin REST). Another merchant's coupon is 404. */
@ApiTags('merchant')
@Controller('merchant/coupons')
export class MerchantCouponsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  private scope(merchantId: number) {
    return new MerchantScope(this.dataSource.getRepository(Coupon), merchantId);
  }

  @Get()
  async list(
    @CurrentMerchantId() merchantId: number,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const list = {
      resource: 'coupons',
      sortable: SORTABLE,
      defaults: { sortField: 'id', order: 'DESC', perPage: 10 },
    } as const;
    return listAnswer(query, reply, list, async (page) => {
      const { q } = page.filter;
      const where = statusFilter(page.filter).map((status) => ({
        ...status,
        ...(typeof q === 'string' &&
          q.trim() && { title: ILike(`%${q.trim().replace(/[%_\\]/g, '\\$&')}%`) }),
      }));
      const found = await couponPage(
        this.dataSource.getRepository(Coupon),
        this.scope(merchantId).owned(where),
        page,
      );
      return couponRecordsPage(this.dataSource.manager, found);
    });
  }

  @Get(':id')
  async one(@CurrentMerchantId() merchantId: number, @Param('id', IdPipe) id: number) {
    const coupon = await this.scope(merchantId).get(id);
    return (await couponRecords(this.dataSource.manager, [coupon.id]))[0];
  }

  /** JSON or the multipart form of the older client (AdPost file, PascalCase fields). */
  @Post()
  async submit(@CurrentMerchantId() merchantId: number, @Req() request: FastifyRequest) {
    const { fields, files } = await readForm(request, ['adPost'], imageLimit().bytes + 1, IGNORED);
    const adPost = files.adPost ?? (await takeTextImage(fields, 'adPost'));
    const form = await validateForm(CouponFormDto, fields);
    const { couponId } = await this.commands.execute(new SubmitCoupon(merchantId, form, adPost));
    return (await couponRecords(this.dataSource.manager, [couponId]))[0];
  }

  @Put(':id')
  async update(
    @CurrentMerchantId() merchantId: number,
    @Param('id', IdPipe) id: number,
    @Req() request: FastifyRequest,
  ) {
    const { fields, files } = await readForm(request, ['adPost'], imageLimit().bytes + 1, [
      ...IGNORED,
      ...READ_ONLY_FIELDS,
    ]);
    const adPost = files.adPost ?? (await takeTextImage(fields, 'adPost'));
    const changes = await validateForm(CouponChangesDto, fields);
    await this.commands.execute(new UpdateCoupon(merchantId, id, changes, adPost));
    return this.one(merchantId, id);
  }

  /** Withdraws the coupon (react-admin's delete): it stays in the merchant's history. */
  @Delete(':id')
  async withdraw(@CurrentMerchantId() merchantId: number, @Param('id', IdPipe) id: number) {
    await this.commands.execute(new WithdrawCoupon(merchantId, id));
    return this.one(merchantId, id);
  }
}

/** react-admin sends the whole record back on save; fields the merchant cannot change are dropped. */
const READ_ONLY_FIELDS = [
  'id',
  'merchantName',
  'requestedSlotName',
  'slotId',
  'imageUrl',
  'status',
  'rejectionReason',
  'submittedAt',
  'approvedAt',
  'exclusive',
  'clicks',
  'votes',
  'successRate',
];

/** The slots a merchant may ask for when submitting a coupon (react-admin list, read only). */
@ApiTags('merchant')
@Controller('merchant/slots')
export class MerchantSlotsController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = {
      resource: 'slots',
      sortable: MERCHANT_SLOT_SORTS,
      defaults: { sortField: 'id', order: 'ASC', perPage: 100 },
    } as const;
    return listAnswer(query, reply, list, (page) => slotPage(this.dataSource, page));
  }
}
