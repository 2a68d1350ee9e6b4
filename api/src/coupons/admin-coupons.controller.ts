import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource, FindOptionsWhere } from 'typeorm';
import { IdPipe } from '../infrastructure/http/id-pipe.js';
import { listAnswer, reactAdminList } from '../infrastructure/http/react-admin.js';
import { COUPON_LISTING, SLOT_MESSAGES } from '../rules/coupons.js';
import { ApproveCoupon, RejectCoupon } from './commands/review.js';
import { CreateSlot, DeleteSlot, UpdateSlot } from './commands/slots.js';
import { ApproveCouponDto, RejectCouponDto, SlotChangesDto, SlotDto } from './dto/review.dto.js';
import { Coupon } from './entities/coupon.entity.js';
import { couponPage, couponRecords, couponRecordsPage } from './queries/coupon-records.js';
import { statusFilter } from './queries/coupon-status.js';
import { SLOT_SORTS, slotById, slotPage } from './queries/slots.js';

/** The review queue: every merchant's coupons, pending first by default, in fives. */
@ApiTags('admin')
@Controller('admin/coupons')
export class AdminCouponsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = {
      resource: 'coupons',
      sortable: ['id', 'submittedAt', 'expiryDate', 'status', 'title'],
      defaults: { sortField: 'submittedAt', order: 'ASC', perPage: COUPON_LISTING.reviewPerPage },
    } as const;
    return listAnswer(query, reply, list, async (page) => {
      const { merchantId } = page.filter;
      const where: FindOptionsWhere<Coupon>[] = statusFilter(page.filter).map((status) => ({
        ...status,
        ...(Number.isInteger(merchantId) && { merchantId: merchantId as number }),
      }));
      const found = await couponPage(this.dataSource.getRepository(Coupon), where, page);
      return couponRecordsPage(this.dataSource.manager, found);
    });
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const [record] = await couponRecords(this.dataSource.manager, [id]);
    if (!record) throw new NotFoundException({ statusCode: 404, message: 'Coupon not found.' });
    return record;
  }

  @Post(':id/approve')
  @HttpCode(200)
  approve(@Param('id', IdPipe) id: number, @Body() body: ApproveCouponDto) {
    return this.commands.execute(new ApproveCoupon(id, body.slotId));
  }

  @Post(':id/reject')
  @HttpCode(200)
  async reject(@Param('id', IdPipe) id: number, @Body() body: RejectCouponDto) {
    await this.commands.execute(new RejectCoupon(id, body.reason));
    return this.one(id);
  }
}

/** Placement slots: free or paid (price in rupees), each holding up to `capacity` live coupons. */
@ApiTags('admin')
@Controller('admin/slots')
export class AdminSlotsController {
  constructor(
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const list = reactAdminList('slots', SLOT_SORTS, 'id', 'ASC');
    return listAnswer(query, reply, list, (page) => slotPage(this.dataSource, page));
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const slot = await slotById(this.dataSource, id);
    if (!slot) throw new NotFoundException({ statusCode: 404, message: SLOT_MESSAGES.notFound });
    return slot;
  }

  @Post()
  create(@Body() body: SlotDto) {
    return this.commands.execute(new CreateSlot(body));
  }

  @Put(':id')
  update(@Param('id', IdPipe) id: number, @Body() body: SlotChangesDto) {
    return this.commands.execute(new UpdateSlot(id, body));
  }

  @Delete(':id')
  remove(@Param('id', IdPipe) id: number) {
    return this.commands.execute(new DeleteSlot(id));
  }
}
