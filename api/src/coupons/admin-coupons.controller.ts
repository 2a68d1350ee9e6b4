import {
  Body,
  ConflictException,
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
import { type DataSource, type FindOptionsWhere, QueryFailedError } from 'typeorm';
import { IdPipe } from '../http/id-pipe.js';
import { entityOrder, parseListRequest, sendRange } from '../http/react-admin.js';
import { COUPON_LISTING } from '../rules/coupons.js';
import { paiseToRupees, rupeesToPaise } from '../rules/money.js';
import { ApproveCoupon, RejectCoupon } from './commands/review.js';
import { ApproveCouponDto, RejectCouponDto, SlotChangesDto, SlotDto } from './dto/review.dto.js';
import { Coupon, Slot } from './entities/coupon.entity.js';
import { couponPage, couponRecords, couponRecordsPage } from './queries/coupon-records.js';
import { statusFilter } from './queries/coupon-status.js';
import { couponsOfSlot } from './queries/slot-seats.js';

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
    const page = parseListRequest(query, ['id', 'submittedAt', 'expiryDate', 'status', 'title'] as const, {
      sortField: 'submittedAt',
      order: 'ASC',
      perPage: COUPON_LISTING.reviewPerPage,
    });
    const { merchantId } = page.filter;
    const where: FindOptionsWhere<Coupon>[] = statusFilter(page.filter).map((status) => ({
      ...status,
      ...(Number.isInteger(merchantId) && { merchantId: merchantId as number }),
    }));
    const found = await couponPage(this.dataSource.getRepository(Coupon), where, page);
    return couponRecordsPage(this.dataSource.manager, reply, page.offset, found);
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

export const slotView = (slot: Slot) => ({
  id: slot.id,
  name: slot.name,
  kind: slot.kind,
  price: slot.pricePaise === null ? null : paiseToRupees(slot.pricePaise),
  capacity: slot.capacity,
});

/** Placement slots: free or paid (price in rupees), each holding up to `capacity` live coupons. */
@ApiTags('admin')
@Controller('admin/slots')
export class AdminSlotsController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get slots() {
    return this.dataSource.getRepository(Slot);
  }

  @Get()
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const page = parseListRequest(query, ['id', 'name', 'kind', 'capacity'] as const, {
      sortField: 'id',
      order: 'ASC',
      perPage: 25,
    });
    const [slots, total] = await this.slots.findAndCount({
      order: entityOrder(page),
      skip: page.offset,
      take: page.limit,
    });
    sendRange(reply, 'slots', page.offset, slots.length, total);
    return slots.map(slotView);
  }

  @Get(':id')
  async one(@Param('id', IdPipe) id: number) {
    const slot = await this.slots.findOneBy({ id });
    if (!slot) throw new NotFoundException({ statusCode: 404, message: 'Slot not found.' });
    return slotView(slot);
  }

  @Post()
  async create(@Body() body: SlotDto) {
    const slot = await this.save(
      this.slots.create({
        name: body.name,
        kind: body.kind,
        pricePaise: body.kind === 'paid' && body.price ? rupeesToPaise(body.price) : null,
        capacity: body.capacity,
      }),
    );
    return slotView(slot);
  }

  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: SlotChangesDto) {
    const slot = await this.slots.findOneBy({ id });
    if (!slot) throw new NotFoundException({ statusCode: 404, message: 'Slot not found.' });
    const kind = body.kind ?? slot.kind;
    const price =
      body.price === undefined
        ? slot.pricePaise === null
          ? null
          : paiseToRupees(slot.pricePaise)
        : body.price;
    if (kind === 'paid' && !price) {
      throw new ConflictException({ statusCode: 409, message: 'A paid slot needs a price in rupees.' });
    }
    Object.assign(slot, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.capacity !== undefined && { capacity: body.capacity }),
      kind,
      pricePaise: kind === 'paid' && price ? rupeesToPaise(price) : null,
    });
    return slotView(await this.save(slot));
  }

  @Delete(':id')
  async remove(@Param('id', IdPipe) id: number) {
    const slot = await this.one(id);
    if ((await couponsOfSlot(this.dataSource, id)) > 0)
      throw new ConflictException({
        statusCode: 409,
        message: 'This slot has coupons and cannot be deleted.',
      });
    try {
      await this.slots.delete({ id });
    } catch (error) {
      // Another feature's rows name the slot (a feed source places its coupons there).
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23503') {
        throw new ConflictException({
          statusCode: 409,
          message: 'This slot is in use and cannot be deleted.',
        });
      }
      throw error;
    }
    return slot;
  }

  private async save(slot: Slot): Promise<Slot> {
    try {
      return await this.slots.save(slot);
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505') {
        throw new ConflictException({
          statusCode: 409,
          message: 'A slot with this name exists.',
          errors: { name: ['A slot with this name exists.'] },
        });
      }
      throw error;
    }
  }
}
